import { describe, expect, it } from "vitest";
import { markItems } from "../../src/stages/extract/marked-content.js";
import { MAX_STRUCTURE_DEPTH, readStructureOrder, type StructTreeNode } from "../../src/stages/extract/structure-order.js";

const content = (id: string): StructTreeNode => ({ type: "content", id });
const el = (role: string, ...children: StructTreeNode[]): StructTreeNode => ({ role, children });
const root = (...children: StructTreeNode[]): StructTreeNode => ({ role: "Root", children: [el("Document", ...children)] });

describe("structure order", () => {
  it("orders MCIDs as the tree does and gives each the block element around it", () => {
    const order = readStructureOrder(root(el("H1", content("mc2")), el("P", content("mc0"), el("Span", content("mc3")), content("mc1"))))!;
    const place = (id: string) => order.places.get(id)!;
    expect(["mc2", "mc0", "mc3", "mc1"].map((id) => place(id).order)).toEqual([0, 1, 2, 3]);
    expect(place("mc2").role).toBe("H1");
    // The Span is inline: its content stays in the P's block.
    expect(new Set(["mc0", "mc3", "mc1"].map((id) => place(id).block)).size).toBe(1);
    expect(place("mc0").role).toBe("P");
    expect(place("mc2").block).not.toBe(place("mc0").block);
  });

  it("keeps a list item's label and its body one block, though the body is wrapped in a Part and a P (LaTeX's tagging)", () => {
    const order = readStructureOrder(root(el("L", el("LI", el("Lbl", content("b1")), el("LBody", el("Part", el("P", content("t1"))))), el("LI", el("Lbl", content("b2")), el("LBody", el("P", content("t2")))))))!;
    const block = (id: string) => order.places.get(id)!.block;
    expect(block("b1")).toBe(block("t1"));
    expect(block("b2")).toBe(block("t2"));
    expect(block("b1")).not.toBe(block("b2"));
    expect(order.places.get("t1")!.role).toBe("LI");
  });

  it("starts a new block for a paragraph's content after a sidebar nested inside it", () => {
    const order = readStructureOrder(root(el("P", content("a"), el("Div", el("H2", content("s1")), el("P", content("s2"))), content("b"))))!;
    const block = (id: string) => order.places.get(id)!.block;
    expect(new Set([block("a"), block("s1"), block("s2"), block("b")]).size).toBe(4);
    expect(["a", "s1", "s2", "b"].map((id) => order.places.get(id)!.order)).toEqual([0, 1, 2, 3]);
  });

  it("places table content in its row and column, counting empty cells", () => {
    const order = readStructureOrder(
      root(el("Table", el("TR", el("TH", content("h1")), el("TH", content("h2"))), el("TBody", el("TR", el("TD"), el("TD", el("P", content("c2"))))))),
    )!;
    expect(order.places.get("h2")!.cell).toEqual({ table: 0, row: 0, column: 1 });
    expect(order.places.get("c2")!.cell).toEqual({ table: 0, row: 1, column: 1 });
    expect(order.tables.get(0)).toEqual([2, 2]);
  });

  it("marks content of an inline element whose replacement text is a soft hyphen", () => {
    const order = readStructureOrder(root(el("P", content("a"), { role: "Span", alt: "\u00AD", children: [content("h")] }, content("b"))))!;
    expect(order.places.get("h")!.softHyphen).toBe(true);
    expect(order.places.get("a")!.softHyphen).toBeUndefined();
  });

  it("declines a page without a tree or without any content reference", () => {
    expect(readStructureOrder(null)).toBeNull();
    expect(readStructureOrder({ role: "Root", children: [] })).toBeNull();
    expect(readStructureOrder(root(el("Figure", { type: "object", id: "x" })))).toBeNull();
  });

  it(`stops at depth ${MAX_STRUCTURE_DEPTH} instead of exhausting the stack`, () => {
    let deep: StructTreeNode = content("deep");
    for (let i = 0; i < 100_000; i++) deep = el("Div", deep);
    const order = readStructureOrder(root(el("P", content("shallow")), deep));
    expect(order!.places.has("shallow")).toBe(true);
    expect(order!.places.has("deep")).toBe(false);
  });
});

describe("marked content", () => {
  const text = (str: string) => ({ str, transform: [10, 0, 0, 10, 0, 0], width: 10, height: 10, fontName: "f" });
  it("gives each text item its innermost MCID and flags artifacts", () => {
    const items = markItems([
      { type: "beginMarkedContent", tag: "Artifact" },
      text("Page 1"),
      { type: "endMarkedContent" },
      { type: "beginMarkedContentProps", id: "p1R_mc0", tag: "P" },
      text("body"),
      { type: "beginMarkedContentProps", id: null, tag: "Span" },
      text("inner"),
      { type: "endMarkedContent" },
      { type: "endMarkedContent" },
      text("outside"),
    ]);
    expect(items.map((i) => [i.str, i.mcid, i.artifact])).toEqual([
      ["Page 1", undefined, true],
      ["body", "p1R_mc0", undefined],
      ["inner", "p1R_mc0", undefined],
      ["outside", undefined, undefined],
    ]);
  });

  it("survives an unbalanced end marker", () => {
    expect(markItems([{ type: "endMarkedContent" }, text("x")]).map((i) => i.str)).toEqual(["x"]);
  });
});
