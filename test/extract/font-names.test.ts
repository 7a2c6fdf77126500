/**
 * Font names in records belong to the document (src/stages/extract/font-names.ts): pdf.js numbers
 * the documents a process opens, and its font names carried that number, so a document read after
 * another named its fonts differently from the same document read first.
 */
import { describe, expect, it } from "vitest";
import type { Line } from "../../src/core/records.js";
import { renameFonts, type FontNames } from "../../src/stages/extract/font-names.js";
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

  it("are one name for the subsets of one font a producer embedded page by page, and two for two fonts", () => {
    const line = (...fonts: string[]): Line => ({ text: "", x: 0, y: 0, width: 0, fontSize: 10, runs: fonts.map((fontName) => ({ text: "a", x: 0, y: 0, width: 5, fontSize: 10, fontName })) });
    const names: FontNames = new Map();
    const page1 = line("g_d0_f1", "g_d0_f2");
    const page2 = line("g_d0_f3", "g_d0_f4", "g_d0_f5");
    renameFonts([{ kind: "flow", lines: [page1], flowBreaks: new Set() }], names, { g_d0_f1: { fontName: "ABCDEF+Arial-BoldMT" }, g_d0_f2: { fontName: "ABCDEF+TimesNewRomanPSMT" } });
    // Page 2 embeds its own subsets; Type3 fonts without names of their own are told apart by their objects.
    renameFonts([{ kind: "flow", lines: [page2], flowBreaks: new Set() }], names, { g_d0_f3: { fontName: "GHIJKL+Arial-BoldMT" }, g_d0_f4: { fontName: "Type3" }, g_d0_f5: { fontName: "Type3" } });
    expect([...page1.runs, ...page2.runs].map((r) => r.fontName)).toEqual(["f1", "f2", "f1", "f3", "f4"]);
  });
});
