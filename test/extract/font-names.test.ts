/**
 * Font names in records belong to the document (src/stages/extract/font-names.ts): pdf.js numbers
 * the documents a process opens, and its font names carried that number, so a document read after
 * another named its fonts differently from the same document read first.
 */
import { describe, expect, it } from "vitest";
import { extractFile, okPages } from "../helpers/extract.js";

describe("font names", () => {
  it("are the same for a document however many documents the process read before it", async () => {
    const first = await extractFile("fixtures/samples/quarterly-report.pdf");
    await extractFile("fixtures/form-filled-fields-beside-labels.pdf");
    const again = await extractFile("fixtures/samples/quarterly-report.pdf");
    expect(again).toEqual(first);
  });

  it("are f1, f2, … in the order the document first uses them, one name per font", async () => {
    const fonts = okPages(await extractFile("fixtures/samples/quarterly-report.pdf")).flatMap((p) => p.lines.flatMap((l) => l.runs.map((r) => r.fontName)));
    const distinct = [...new Set(fonts)];
    expect(distinct).toEqual(distinct.map((_, i) => `f${i + 1}`));
  });
});
