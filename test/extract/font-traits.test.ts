import { describe, expect, it } from "vitest";
import { isBoldFontName, isMonospaceFontName, pictureGlyph } from "../../src/stages/extract/font-traits.js";
import { okPages, extractFile } from "../helpers/extract.js";

describe("what a font's name says", () => {
  it.each([
    ["ABCDEF+Arial-BoldMT", true],
    ["Helvetica-Bold", true],
    ["Garamond,Bold", true],
    ["CMBX12", true],
    ["SFBX1000", true],
    ["NimbusRomNo9L-Medi", true],
    ["Montserrat-SemiBold", true],
    ["HiraKakuStdN-W8", true],
    ["HiraKakuProN-W4", false],
    ["Montserrat-Medium", false],
    ["TimesNewRomanPSMT", false],
    ["CMR10", false],
    ["Boldini-Italic", true],
  ])("%s is bold: %s", (name, bold) => {
    expect(isBoldFontName(name)).toBe(bold);
  });

  it("knows fixed-pitch families by name, whatever their flags", () => {
    expect(["DejaVuSansMono", "XYZABC+Consolas", "CourierNewPSMT", "CMTT10", "LMMono10-Regular", "SourceCodePro-Regular"].map(isMonospaceFontName)).toEqual([true, true, true, true, true, true]);
    expect(["Arial", "Monotype-Corsiva", "Helvetica"].map(isMonospaceFontName)).toEqual([false, false, false]);
  });

  it("reads a picture font's unmapped glyph as what it shows: a bullet, a check mark, a box", () => {
    expect(pictureGlyph("ELCKGH+WPTypographicSymbols", "!")).toBe("•");
    expect(pictureGlyph("Wingdings-Regular", "\u00FC")).toBe("✓");
    expect(pictureGlyph("Wingdings-Regular", "q")).toBe("❑");
    expect(pictureGlyph("Wingdings-Regular", "\u25CF")).toBeUndefined(); // already mapped by pdf.js
    expect(pictureGlyph("Helvetica", "!")).toBeUndefined();
    expect(pictureGlyph("Wingdings", "ab")).toBeUndefined();
  });
});

describe("font traits on real pages", () => {
  it("marks the runs of a bold font bold, and sets a listing in a font fixed-pitch by name only as code", async () => {
    const [page] = okPages(await extractFile("fixtures/monospace-font-by-name.pdf"));
    expect(page!.paragraphs.map((p) => p.kind)).toEqual(["text", "verbatim", "text"]);
    const [report] = okPages(await extractFile("fixtures/structure-report.pdf"));
    expect(report!.lines[0]!.runs.every((r) => r.bold)).toBe(true);
    expect(report!.lines.find((l) => l.text.startsWith("The harbour handled"))!.runs.some((r) => r.bold)).toBe(false);
  });
});
