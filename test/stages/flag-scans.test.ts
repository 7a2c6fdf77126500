import { describe, expect, it } from "vitest";
import type { PageRecord } from "../../src/core/records.js";
import { isScanDocument, pageList, pagesWithoutTextWarning, pageVerdict } from "../../src/stages/flag-scans/scan-verdict.js";

const options = { minCharsPerPage: 12, garbledShare: 0.1 };

function page(text: string, extra: Partial<PageRecord> = {}): PageRecord {
  return {
    type: "page", documentId: "d", uri: "u", number: 1, width: 612, height: 792, rotation: 0, lines: [], paragraphs: [],
    text, mode: "reflow", empty: text === "", orderSource: "geometry", orderReason: "", untaggedGlyphs: 0, columns: 1, ...extra,
  };
}

describe("scan verdicts (docs/extraction.md §8.1)", () => {
  it.each([
    [0, 3, true],
    [30, 3, true],
    [36, 3, false],
    [11, 1, true],
    [12, 1, false],
  ])("%i characters on %i page(s): scan %s", (chars, pages, scan) => {
    const perPage = Array.from({ length: pages }, (_, i) => Math.floor(chars / pages) + (i < chars % pages ? 1 : 0));
    expect(isScanDocument(perPage, 12)).toBe(scan);
  });

  it("flags a page with an image and no text as image_only", () => {
    expect(pageVerdict(page("", { images: 1 }), options)).toMatchObject({ scan: true, reason: "image_only" });
  });

  it("calls a page with neither text nor image blank on paper, not a scan", () => {
    expect(pageVerdict(page("", { images: 0 }), options).scan).toBe(false);
  });

  it("flags a scanned page whose only text is a stamped page number", () => {
    expect(pageVerdict(page("Page 2", { images: 1 }), options)).toMatchObject({ scan: true, reason: "image_only" });
    expect(pageVerdict(page("Page 2"), options)).toMatchObject({ scan: true, reason: "stray_text" });
  });

  it("does not flag a page of text, and says when the text is an invisible OCR layer", () => {
    expect(pageVerdict(page("The committee met on Tuesday."), options)).toEqual({ chars: 25, scan: false, ocrLayer: false });
    expect(pageVerdict(page("The committee met on Tuesday.", { invisibleText: true, images: 1 }), options)).toEqual({ chars: 25, scan: false, ocrLayer: true });
  });

  it("reports the share of characters that did not map to Unicode", () => {
    expect(pageVerdict(page("Th\uFFFD c\uFFFDmm\uFFFDttee met"), options).garbled).toBeCloseTo(0.2, 3);
  });
});

describe("the pages-without-text warning", () => {
  it("names runs of three pages or more as a range, so a long scan is a short line", () => {
    expect(pageList([2])).toBe("2");
    expect(pageList([2, 4])).toBe("2, 4");
    expect(pageList([1, 2, 5])).toBe("1, 2, 5");
    expect(pageList([1, 2, 3, 7, 9, 10, 11, 12])).toBe("1–3, 7, 9–12");
    const everyPage = Array.from({ length: 20_000 }, (_, i) => i + 1);
    expect(pagesWithoutTextWarning(everyPage).message.length).toBeLessThan(200);
  });

  it("says how to read the pages until the ocr stage has tried them", () => {
    expect(pagesWithoutTextWarning([2]).message).toBe("1 page(s) have no selectable text and came out empty: 2 (the ocr stage reads them: `- type: ocr` after flag-scans, or `extract --ocr`)");
    expect(pagesWithoutTextWarning([2], { readByOcr: true }).message).toBe("1 page(s) have no selectable text and came out empty: 2");
  });
});
