import { describe, expect, it } from "vitest";
import { renderPageText } from "../../src/text/page-text.js";
import type { Line, Paragraph } from "../../src/core/records.js";

function lines(...texts: string[]): Line[] {
  return texts.map((text, i) => ({ text, x: 100, y: 700 - 12 * i, width: 300, fontSize: 10, runs: [] }));
}
const one = (n: number): Paragraph[] => [{ start: 0, end: n, kind: "text" }];

describe("page text", () => {
  it("reflow joins a paragraph's lines with single spaces; preserve keeps them", () => {
    const l = lines("The committee met", "on Tuesday.");
    expect(renderPageText(l, one(2), "reflow")).toBe("The committee met on Tuesday.");
    expect(renderPageText(l, one(2), "preserve")).toBe("The committee met\non Tuesday.");
  });

  it("separates paragraphs by exactly one blank line in both modes", () => {
    const l = lines("First.", "Second.");
    const ps: Paragraph[] = [
      { start: 0, end: 1, kind: "text" },
      { start: 1, end: 2, kind: "text" },
    ];
    expect(renderPageText(l, ps, "reflow")).toBe("First.\n\nSecond.");
    expect(renderPageText(l, ps, "preserve")).toBe("First.\n\nSecond.");
  });

  it("never puts a space after a line-end hyphen glued to a word (Osei-Mensah, COVID-19)", () => {
    expect(renderPageText(lines("chairperson Ama Osei-", "Mensah joined"), one(2), "reflow")).toBe("chairperson Ama Osei-Mensah joined");
    expect(renderPageText(lines("the COVID-", "19 programme"), one(2), "reflow")).toBe("the COVID-19 programme");
  });

  it("reflow joins lines of Chinese or Japanese with no space, and Korean lines with one", () => {
    expect(renderPageText(lines("持分法の適用範囲", "の変動"), one(2), "reflow")).toBe("持分法の適用範囲の変動");
    expect(renderPageText(lines("카드 혜택", "안내"), one(2), "reflow")).toBe("카드 혜택 안내");
    expect(renderPageText(lines("持分法の", "変動"), one(2), "preserve")).toBe("持分法の\n変動");
  });

  it("keeps the space after a free-standing dash", () => {
    expect(renderPageText(lines("costs rose –", "as expected"), one(2), "reflow")).toBe("costs rose – as expected");
  });

  it("joins a word broken at a soft hyphen in reflow and prints a hyphen in preserve", () => {
    const l = lines("the con\u00AD", "nections");
    expect(renderPageText(l, one(2), "reflow")).toBe("the connections");
    expect(renderPageText(l, one(2), "preserve")).toBe("the con-\nnections");
  });

  it("keeps a listing's indentation in character cells and its blank lines from gaps of whole pitches", () => {
    const code = (text: string, x: number, y: number): Line => ({ text, x, y, width: 6 * text.length, fontSize: 10, runs: [{ text, x, y, width: 6 * text.length, fontSize: 10, fontName: "c", monospace: true }] });
    const l = [code("def f():", 100, 700), code("x = 1", 124, 688), code("y = 2", 124, 676), code("return x", 124, 652), code("# end", 100, 616)];
    expect(renderPageText(l, [{ start: 0, end: 5, kind: "verbatim" }], "reflow")).toBe("def f():\n    x = 1\n    y = 2\n\n    return x\n\n\n# end");
  });
});
