import { describe, expect, it } from "vitest";
import { orientRuns, type PdfTextItem } from "../../src/stages/extract/text-runs.js";

function item(str: string, transform: number[], width = str.length * 5): PdfTextItem {
  return { str, transform, width, height: 10, fontName: "f1" };
}

describe("text runs", () => {
  it("reads text drawn rotated by 90° (a landscape page) in its own frame, top line first", () => {
    // Text running upwards: x' = y, y' = -x. The line at x = 100 is above the line at x = 112.
    const items = [item("second line", [0, 10, -10, 0, 112, 100]), item("first line", [0, 10, -10, 0, 100, 100])];
    const { angle, body, offAxis } = orientRuns(items);
    expect(angle).toBe(90);
    expect(offAxis).toEqual([]);
    const [a, b] = [...body].sort((r, s) => s.y - r.y);
    expect(a!.text).toBe("first line");
    expect(b!.text).toBe("second line");
    expect(a!.x).toBeCloseTo(100);
  });

  it("keeps a vertical margin note apart from the horizontal body text", () => {
    const items = [
      item("The body text of the page runs across", [10, 0, 0, 10, 100, 700]),
      item("DRAFT", [0, 10, -10, 0, 50, 400]),
      item("and continues on the next line here", [10, 0, 0, 10, 100, 688]),
    ];
    const { body, offAxis } = orientRuns(items);
    expect(body.map((r) => r.text)).toEqual(["The body text of the page runs across", "and continues on the next line here"]);
    expect(offAxis.map((g) => g.map((r) => r.text))).toEqual([["DRAFT"]]);
  });

  it("drops whitespace-only items (the gap they fill decides spacing)", () => {
    const { body } = orientRuns([item("a", [10, 0, 0, 10, 0, 0]), item(" ", [10, 0, 0, 10, 5, 0]), item("b", [10, 0, 0, 10, 10, 0])]);
    expect(body.map((r) => r.text)).toEqual(["a", "b"]);
  });

  it("treats a fixed-pitch font as monospaced only when its character cells agree", () => {
    const mono = { f1: { fontFamily: "monospace" } };
    const code = orientRuns([item("abcdef", [10, 0, 0, 10, 0, 0], 36), item("ghi", [10, 0, 0, 10, 0, -12], 18)], mono);
    expect(code.body.every((r) => r.monospace)).toBe(true);
    // An OCR layer's glyphless font, stretched word by word.
    const ocr = orientRuns([item("Westmoor", [10, 0, 0, 10, 0, 0], 42), item("Tenants", [10, 0, 0, 10, 50, 0], 28)], mono);
    expect(ocr.body.some((r) => r.monospace)).toBe(false);
  });

  it("never takes Chinese or Japanese text in a fixed-pitch font for code: its full-width cells agree whatever the font", () => {
    const mono = { f1: { fontFamily: "monospace" } };
    // One em a character, line after line: the cell test alone would call this a listing.
    const cjk = orientRuns([item("東京都港区の事務所", [10, 0, 0, 10, 0, 0], 90), item("京都の市場", [10, 0, 0, 10, 0, -12], 50)], mono);
    expect(cjk.body.map((r) => r.monospace ?? false)).toEqual([false, false]);
    const latin = orientRuns([item("const x = 1", [10, 0, 0, 10, 0, 0], 110), item("y = 2", [10, 0, 0, 10, 0, -12], 50)], mono);
    expect(latin.body.map((r) => r.monospace ?? false)).toEqual([true, true]);
  });

  it("does not take a proportional font that declares a fixed pitch for monospaced, from its lines' few percent of difference", () => {
    const mono = { f1: { fontFamily: "monospace" } };
    // Two lines of prose: 0.443 and 0.423 em a character on average (4.6 % apart).
    const prose = orientRuns([item("x".repeat(90), [10, 0, 0, 10, 0, 0], 398.7), item("y".repeat(26), [10, 0, 0, 10, 0, -16], 110)], mono);
    expect(prose.body.some((r) => r.monospace)).toBe(false);
  });

  it("weighs a font's runs over the document's pages, so one run alone on a later page is judged by the earlier ones", () => {
    const mono = { f1: { fontFamily: "monospace" } };
    const lone = () => [item("z".repeat(90), [10, 0, 0, 10, 0, 0], 398.7)];
    // Alone, a single run cannot disagree with itself.
    expect(orientRuns(lone(), mono).body[0]!.monospace).toBe(true);
    const seen = new Map();
    orientRuns([item("x".repeat(90), [10, 0, 0, 10, 0, 0], 398.7), item("y".repeat(26), [10, 0, 0, 10, 0, -16], 110)], mono, seen);
    expect(orientRuns(lone(), mono, seen).body[0]!.monospace).toBeUndefined();
    // A real fixed-pitch font keeps agreeing page after page.
    const code = new Map();
    orientRuns([item("abcdef", [10, 0, 0, 10, 0, 0], 36), item("ghi", [10, 0, 0, 10, 0, -12], 18)], mono, code);
    expect(orientRuns([item("const x = 1;", [10, 0, 0, 10, 0, 0], 72)], mono, code).body[0]!.monospace).toBe(true);
  });

  it("makes every run with the same fields in the same order, the ones a run lacks undefined (one shape for the layout passes)", () => {
    const styles = { f1: { fontFamily: "monospace" }, f2: { fontName: "ABCDEF+Helvetica-Bold" } };
    const items: PdfTextItem[] = [
      { ...item("plain", [10, 0, 0, 10, 0, 100]), fontName: "f3" },
      item("monospaced", [10, 0, 0, 10, 0, 20], 50),
      { ...item("bold", [10, 0, 0, 10, 60, 100]), fontName: "f2" },
      item(" ", [10, 0, 0, 10, 100, 100]),
      { ...item("tagged", [10, 0, 0, 10, 120, 100]), fontName: "f3", mcid: "p1R_mc0" },
      { ...item("furniture", [10, 0, 0, 10, 0, 80]), fontName: "f3", artifact: true },
      { ...item("a field's value", [10, 0, 0, 10, 0, 60]), fontName: "f3", form: true },
      { ...item("tilted", [9.99, 0.3, -0.3, 9.99, 0, 40]), fontName: "f3" },
    ];
    const { body } = orientRuns(items, styles);
    expect(body.length).toBe(items.length - 1);
    const keys = body.map((r) => Object.keys(r).join(","));
    expect(new Set(keys).size).toBe(1);
    // What each run has set is still what it says, and JSON leaves out what it has not.
    const byText = new Map(body.map((r) => [r.text, r]));
    expect(byText.get("bold")!.bold).toBe(true);
    expect(byText.get("monospaced")!.monospace).toBe(true);
    expect(byText.get("tagged")!.spaceBefore).toBe(true);
    expect(byText.get("tagged")!.mcid).toBe("p1R_mc0");
    expect(byText.get("furniture")!.artifact).toBe(true);
    expect(byText.get("a field's value")!.form).toBe(true);
    expect(byText.get("tilted")!.skew).toBeCloseTo(0.03, 3);
    expect(Object.keys(JSON.parse(JSON.stringify(byText.get("plain"))))).toEqual(["text", "x", "y", "width", "fontSize", "fontName"]);
  });
});
