import { describe, expect, it } from "vitest";
import type { TextRun } from "../../src/core/records.js";
import extract, { layoutOptions } from "../../src/stages/extract/stage.js";
import { readStructureOrder, type StructTreeNode } from "../../src/stages/extract/structure-order.js";
import { taggedTableRows } from "../../src/stages/extract/tagged-table.js";

const options = layoutOptions(extract.options.parse({}));
const content = (id: string): StructTreeNode => ({ type: "content", id });
const el = (role: string, ...children: StructTreeNode[]): StructTreeNode => ({ role, children });
/** A tagged table whose rows list their cells' marked content in the order given. */
const tree = (...rows: string[][]): StructTreeNode => ({ role: "Root", children: [el("Table", ...rows.map((cells) => el("TR", ...cells.map((id) => el("TD", content(id))))))] });
/** A run of 10 pt text, about half an em per character. */
const run = (mcid: string, text: string, x: number, y: number): TextRun => ({ text, x, y, width: text.length * 5, fontSize: 10, fontName: "f", mcid });

describe("tagged tables", () => {
  it("puts a row's cells in the order the page shows them, not the order the tree lists them", () => {
    const runs = [run("a", "W/E 02/24/17", 150, 700), run("b", "Last Week", 250, 700), run("c", "Year Ago", 350, 700), run("d", "Report Link", 450, 700)];
    const order = readStructureOrder(tree(["d", "a", "b", "c"]))!;
    expect(taggedTableRows(runs, order, options).map((l) => l.text)).toEqual(["W/E 02/24/17\tLast Week\tYear Ago\tReport Link"]);
  });

  it("reads a range that the producer tagged as three cells ('1.35', '-', '1.42') as one cell", () => {
    // "1.35" ends at 170; the dash stands a word space after it, "1.42" a word space after the dash.
    const runs = [run("l", "Iowa", 72, 700), run("a", "1.35", 150, 700), run("d", "-", 173, 700), run("b", "1.42", 181, 700), run("n", "Iowa Ethanol", 300, 700)];
    const order = readStructureOrder(tree(["l", "a", "d", "b", "n"]))!;
    expect(taggedTableRows(runs, order, options)[0]!.cells).toEqual(["Iowa", "1.35 - 1.42", "Iowa Ethanol"]);
  });

  it("keeps a dash that stands in a column of its own (nil) apart from the numbers beside it", () => {
    const runs = [run("a", "412", 150, 700), run("d", "-", 220, 700), run("b", "455", 290, 700)];
    const order = readStructureOrder(tree(["a", "d", "b"]))!;
    expect(taggedTableRows(runs, order, options)[0]!.cells).toEqual(["412", "-", "455"]);
  });

  it("keeps an empty cell in its place in the tree's order", () => {
    const runs = [run("a", "EMEA", 72, 700), run("b", "455", 290, 700)];
    const order = readStructureOrder({ role: "Root", children: [el("Table", el("TR", el("TD", content("a")), el("TD"), el("TD", content("b"))))] })!;
    expect(taggedTableRows(runs, order, options)[0]!.text).toBe("EMEA\t\t455");
  });

  it("keeps a wrapped cell's printed lines in its cell, as untagged tables do, and joins a broken word without a space", () => {
    // "Filetes y demás car-" over "nes de pescado", one TD; the value beside it.
    const runs = [run("a", "Filetes y demás car-", 72, 700), run("b", "nes de pescado", 72, 688), run("v", "1.240", 300, 700)];
    const order = readStructureOrder({ role: "Root", children: [el("Table", el("TR", el("TD", content("a"), content("b")), el("TD", content("v"))))] })!;
    const [row] = taggedTableRows(runs, order, options);
    expect(row!.cells).toEqual(["Filetes y demás car-\nnes de pescado", "1.240"]);
    expect(row!.text).toBe("Filetes y demás car-nes de pescado\t1.240");
  });
});
