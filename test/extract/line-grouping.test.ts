import { describe, expect, it } from "vitest";
import { groupLines } from "../../src/stages/extract/line-grouping.js";
import { run, words } from "../helpers/runs.js";

const options = { lineTolerance: 0.5, spaceRatio: 0.25, collapseLetterSpacing: true };

describe("line grouping", () => {
  it("groups runs by baseline and orders each line left to right, whatever the paint order", () => {
    const lines = groupLines([run("world", 140, 700), run("second line", 100, 688), run("hello", 100, 700)], options);
    expect(lines.map((l) => l.text)).toEqual(["hello world", "second line"]);
  });

  it("keeps a raised footnote marker on its line", () => {
    const lines = groupLines([run("cost was estimated.", 100, 700), run("2", 195.3, 703.6, 7), run("Next line", 100, 688)], options);
    expect(lines.map((l) => l.text)).toEqual(["cost was estimated.2", "Next line"]);
    expect(lines[0]!.fontSize).toBe(10);
  });

  it("keeps a raised letter with the word it touches, not with the other column's line it reached first", () => {
    // "L^AT_EX" in the left column: the small A stands 1.2 pt above its line, and a line of the
    // right column stands 4 pt above it.
    const lines = groupLines(
      [run("with L", 49, 656.9, 8, 177), run("A", 223, 658.1, 6, 4.3), run("TEX is easy", 226.2, 656.9, 8, 74), run("data from the original", 333.8, 662.2, 9, 229)],
      options,
    );
    expect(lines.map((l) => l.text)).toEqual(["data from the original", "with LATEX is easy"]);
  });

  it("keeps 9 pt lines set close together apart (tolerance follows the font size)", () => {
    const lines = groupLines([run("first footnote line", 100, 100, 9), run("second footnote line", 100, 94.5, 9)], options);
    expect(lines).toHaveLength(2);
  });

  it("keeps a 14 pt heading and the 11 pt line under it apart", () => {
    const lines = groupLines([run("Heading", 100, 720, 14), run("Body text", 100, 700, 11)], options);
    expect(lines.map((l) => l.text)).toEqual(["Heading", "Body text"]);
  });

  it("keeps the words of a tilted OCR line together although the line drops as it goes", () => {
    // A 1.4° tilt: the baseline falls 0.025 pt per point; words 60 pt apart drop 1.5 pt each.
    const skew = -0.025;
    const tilted = [0, 1, 2, 3, 4, 5, 6].map((i) => run(`w${i}`, 100 + i * 60, 700 + i * 60 * skew, 11, 20, { skew }));
    const next = [0, 1, 2, 3, 4, 5, 6].map((i) => run(`v${i}`, 100 + i * 60, 685 + i * 60 * skew, 11, 20, { skew }));
    const lines = groupLines([...tilted, ...next], options);
    expect(lines.map((l) => l.text)).toEqual(["w0 w1 w2 w3 w4 w5 w6", "v0 v1 v2 v3 v4 v5 v6"]);
  });

  it("keeps lines of two blocks a column apart as two lines when their baselines differ by half an em", () => {
    // A box under one column beside the next column's line, 4.1 pt lower at 9 pt: within the
    // line tolerance, but a column's width away.
    const lines = groupLines([run("away from the vehicle: it will lock", 205, 84.2, 9, 156), run("Depending on the vehicle, the door", 35, 78.3, 9, 143)], options);
    expect(lines.map((l) => l.text)).toEqual(["away from the vehicle: it will lock", "Depending on the vehicle, the door"]);
  });

  it("keeps a footnote number raised before its note, an em away, on the note's line", () => {
    const lines = groupLines([run("1", 84.7, 88.9, 6, 3.7), run("Members who wish to join should contact the office.", 97.6, 85.1, 9, 300)], options);
    expect(lines.map((l) => l.text)).toEqual(["1 Members who wish to join should contact the office."]);
  });

  it("keeps a table's values set a little under their label on the label's row", () => {
    const lines = groupLines([run("Midwest (Food Grade)", 29.3, 309.6, 10, 91.4), run("37.88", 217.5, 309.2, 10, 22.6), run("37.75", 283, 309.2, 10, 22.6)], options);
    expect(lines).toHaveLength(1);
  });

  it("returns no lines for no runs", () => {
    expect(groupLines([], options)).toEqual([]);
  });

  it("joins words laid out as separate runs with spaces", () => {
    const lines = groupLines(words(["The", "committee", "met"], 100, 700, 3), options);
    expect(lines[0]!.text).toBe("The committee met");
  });
});
