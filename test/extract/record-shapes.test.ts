import { describe, expect, it } from "vitest";
import { layoutLines, layoutParagraphs } from "../../src/stages/extract/page-layout.js";
import extract, { layoutOptions } from "../../src/stages/extract/stage.js";
import type { PdfTextItem } from "../../src/stages/extract/text-runs.js";

function item(str: string, x: number, y: number, extra: Partial<PdfTextItem> = {}): PdfTextItem {
  return { str, transform: [10, 0, 0, 10, x, y], width: str.length * 5, height: 10, fontName: "f1", ...extra };
}

/**
 * Runs and lines are made by textRun and textLine (src/core/records.ts) with every field, so
 * that the layout passes read objects of one shape: a line made by spreading another, or given a
 * field after it was made, would be read through V8's generic lookup, boxing every number.
 */
describe("the shape of a laid-out page's lines and runs", () => {
  it("is one list of fields for prose, table rows, a lone row of cells, furniture and a vertical note", () => {
    const items = [
      item("Quarterly report of the water board", 50, 760),
      item("The board met four times this quarter and approved the budget.", 50, 740),
      item("Region", 50, 700), item("Cases", 250, 700), item("Share", 400, 700),
      item("North", 50, 686), item("1,204", 250, 686), item("12.5", 400, 686),
      item("South", 50, 672), item("2,310", 250, 672), item("24.1", 400, 672),
      item("East", 50, 658), item("987", 250, 658), item("10.2", 400, 658),
      item("West", 50, 644), item("4,120", 250, 644), item("43.0", 400, 644),
      item("Filed", 50, 600), item("2026-03-31", 250, 600), item("Page 1", 450, 600, { artifact: true }),
      { ...item("DRAFT - NOT FOR CIRCULATION", 20, 300), transform: [0, 10, -10, 0, 20, 300] },
    ];
    const options = layoutOptions(extract.options.parse({}));
    const page = layoutLines(items, {}, undefined, options).plain();
    const { lines } = layoutParagraphs(page, options);
    expect(lines.some((l) => l.role === "TR" && l.cells?.length === 3)).toBe(true);
    expect(lines.some((l) => l.offAxis)).toBe(true);
    const lineKeys = new Set(lines.map((l) => Object.keys(l).join(",")));
    expect([...lineKeys]).toEqual(["text,x,y,width,fontSize,runs,offAxis,turn,cells,cellSpans,cellRowSpans,cellExtents,role"]);
    const runKeys = new Set(lines.flatMap((l) => l.runs.map((r) => Object.keys(r).join(","))));
    expect(runKeys.size).toBe(1);
    // What a line lacks, JSON leaves out.
    const prose = lines.find((l) => l.text.startsWith("The board met"))!;
    expect(Object.keys(JSON.parse(JSON.stringify(prose)))).toEqual(["text", "x", "y", "width", "fontSize", "runs"]);
  });
});
