/**
 * The ocr stage with the real Tesseract on the generated scans (fixtures/generators/ocr.mjs):
 * what it reads, how the pages come out, and that nothing else changes.
 */
import { describe, expect, it, vi } from "vitest";
import { textOutput } from "../../src/cli/extract-command.js";
import { DEFAULT_STAGES, withOcr } from "../../src/pipeline/default-pipeline.js";
import { pageFlags } from "../../src/text/page-facts.js";
import type { DocumentResult, PageRecord } from "../../src/core/records.js";
import { okPages } from "../helpers/extract.js";
import { markedProcesses, markerEnv, newMarker } from "../helpers/marked-processes.js";
import { waitFor } from "../helpers/wait-for.js";
import { ocrFixture, ocrStages, paragraphsOf, runStages, wordF1 } from "../helpers/ocr.js";

const SCAN = ocrFixture("ocr-scan-two-pages.pdf");
const MIXED = ocrFixture("ocr-mixed-typeset-and-scan.pdf");
const GERMAN = ocrFixture("ocr-scan-german.pdf");
const GARBLED = ocrFixture("ocr-garbled-text-layer.pdf");
const path = (file: string) => `fixtures/${file}`;

// Tesseract reads a page in 2–10 s on one core; a shared machine can take several times that.
vi.setConfig({ testTimeout: 240_000 });

const read = async (file: string, ocr: Record<string, unknown> = {}) => runStages(path(file), await ocrStages(ocr));
let scanRead: Promise<DocumentResult> | undefined;
/** The two-page scan with the default options, read once for the tests that only look. */
const scan = () => (scanRead ??= read(SCAN.file));
const ok = (result: DocumentResult) => {
  if (result.status !== "ok") throw new Error(`${result.uri}: ${result.error.code}: ${result.error.message}`);
  return result;
};

/**
 * Paragraph by paragraph: as many as printed, each close to the one printed in its place (a
 * speck may cost a word; a paragraph break in the wrong place costs two paragraphs much more).
 */
function expectParagraphs(text: string, truth: string): void {
  const got = paragraphsOf(text);
  const want = paragraphsOf(truth);
  expect(got.length, text).toBe(want.length);
  got.forEach((p, i) => expect(wordF1(p, want[i]!), p).toBeGreaterThan(0.9));
  expect(wordF1(text, truth)).toBeGreaterThan(0.98);
}

/** pdf.js names fonts after a counter of the documents it opened in the process: not a fact about the page. */
const comparable = (pages: PageRecord[]) => JSON.parse(JSON.stringify(pages).replace(/"g_d\d+_/g, '"g_'));

describe("ocr stage on a two-page scan", () => {
  it("reads the pages as paragraphs under their headings, without the running header and page numbers, the hyphen and the page break joined", async () => {
    const result = ok(await scan());
    const text = textOutput(result.pages, "plain", false).trimEnd();
    expectParagraphs(text, SCAN.ocr.expected.reflow);
    expect(text).not.toContain(SCAN.ocr.runningHeader!);
    for (const footer of SCAN.ocr.footers!) expect(text).not.toContain(footer);
    expect(text).toContain("maintenance");
    expect(result.pages.map((p) => p.furniture?.pageLabel ?? null)).toEqual(SCAN.ocr.pageLabels);
    expect(result.pages.map((p) => p.furniture?.header)).toEqual([[SCAN.ocr.runningHeader], [SCAN.ocr.runningHeader]]);
    expect(result.pages[0]!.continues).toBe(true);
  });

  it("says on each page that its text is OCR, and how it was read: engine, version, languages, dpi, confidence, the tilt it took out", async () => {
    const result = ok(await scan());
    result.pages.forEach((page, i) => {
      expect(page.source).toBe("ocr");
      expect(page.scan).toBe(true);
      const ocr = page.ocr!;
      expect(ocr).toMatchObject({ engine: "tesseract", languages: ["eng"], dpi: 300 });
      expect(ocr.version).toMatch(/^5\./);
      expect(["pdftoppm", "pdfjs"]).toContain(ocr.renderer);
      expect(ocr.words).toBeGreaterThan(80);
      expect(ocr.meanConfidence).toBeGreaterThan(85);
      expect(ocr.lowConfidenceWords).toBeLessThan(0.05 * ocr.words);
      expect(Math.abs(ocr.skewDegrees - SCAN.ocr.skewDegrees[i]!)).toBeLessThan(0.3);
      expect(pageFlags(page)).toEqual(["ocr", "scan"]);
    });
    // flag-scans' "came out empty" is gone: the pages are not empty any more.
    expect(result.warnings.map((w) => w.code)).toEqual(["ocr_pages"]);
    expect(result.warnings[0]!.message).toMatch(/^2 page\(s\) were read by OCR \(Tesseract 5\.\d+\.\d+, eng; mean confidence \d+(\.\d)?\): 1, 2$/);
    expect(result.warnings[0]!.pages).toEqual([1, 2]);
  });

  it("reads the same with either renderer: pdf.js in the worker and pdftoppm", async () => {
    const [byPdfjs, byPdftoppm] = await Promise.all([read(SCAN.file, { renderer: "pdfjs" }), read(SCAN.file, { renderer: "pdftoppm" })]);
    for (const [result, renderer] of [
      [byPdfjs, "pdfjs"],
      [byPdftoppm, "pdftoppm"],
    ] as const) {
      const pages = okPages(result);
      expect(pages.map((p) => p.ocr?.renderer)).toEqual([renderer, renderer]);
      expectParagraphs(textOutput(pages, "plain", false).trimEnd(), SCAN.ocr.expected.reflow);
    }
  });

  it("lines stay tilted without deskew, and the text is still read", async () => {
    const pages = okPages(await read(SCAN.file, { deskew: false }));
    expect(pages.map((p) => p.ocr!.skewDegrees)).toEqual([0, 0]);
    expect(wordF1(textOutput(pages, "plain", false), SCAN.ocr.expected.reflow)).toBeGreaterThan(0.95);
  });

  it("gives up a page that runs over page_timeout_seconds with a warning, the page left empty as flag-scans said, the document kept", async () => {
    // Each page's Tesseract is started ahead of it; one for a page given up must not be left running.
    const marker = newMarker();
    const [name, value] = Object.entries(markerEnv(marker))[0]!;
    process.env[name] = value;
    const result = ok(await read(SCAN.file, { page_timeout_seconds: 0.05 }).finally(() => delete process.env[name]));
    await waitFor("every Tesseract started for the document to stop", () => markedProcesses("tesseract", marker).length === 0, 2);
    expect(result.pages.every((p) => p.empty && p.source === undefined)).toBe(true);
    expect(result.warnings.map((w) => w.code)).toEqual(["pages_without_text", "ocr_failed", "ocr_failed"]);
    expect(result.warnings[0]!.message).toBe("2 page(s) have no selectable text and came out empty: 1, 2");
    expect(result.warnings[1]!.message).toMatch(/^page 1 could not be read by OCR: /);
  });
});

describe("ocr stage on a typeset document with a scanned page", () => {
  it("reads the scanned page and leaves the typeset pages exactly as without OCR", async () => {
    const without = okPages(await runStages(path(MIXED.file), await ocrStages({}, DEFAULT_STAGES)));
    const withOcrPages = okPages(await read(MIXED.file));
    const [a, b] = [comparable(withOcrPages), comparable(without)];
    expect(a[0]).toEqual(b[0]);
    expect(a[2]).toEqual(b[2]);
    expect(without[1]!.empty).toBe(true);
    expect(withOcrPages[1]!.source).toBe("ocr");
    expectParagraphs(textOutput(withOcrPages, "plain", false).trimEnd(), MIXED.ocr.expected.reflow);
    // The scan's own "Page 2 of 3" goes with the typeset pages' footers.
    expect(withOcrPages.map((p) => p.furniture?.pageLabel ?? null)).toEqual(MIXED.ocr.pageLabels);
    expect(textOutput(withOcrPages, "plain", false)).toContain(MIXED.ocr.onlyInScan!);
  });

  it("reads every page with pages: all, replacing the typeset pages' text layer too", async () => {
    const pages = okPages(await read(MIXED.file, { pages: "all" }));
    expect(pages.map((p) => p.source)).toEqual(["ocr", "ocr", "ocr"]);
    expect(wordF1(textOutput(pages, "plain", false), MIXED.ocr.expected.reflow)).toBeGreaterThan(0.97);
  });

  it("reads nothing in a document without scans", async () => {
    const pages = okPages(await read("samples/meeting-minutes.pdf"));
    const plain = okPages(await runStages(path("samples/meeting-minutes.pdf"), await ocrStages({}, DEFAULT_STAGES)));
    expect(comparable(pages)).toEqual(comparable(plain));
  });
});

describe("ocr stage on a garbled text layer", () => {
  it("leaves it alone by default, and reads the page when asked for scans-and-garbled", async () => {
    const plain = okPages(await read(GARBLED.file));
    expect(plain[0]!.source).toBeUndefined();
    expect(plain[0]!.garbled).toBe(1);
    expect(plain[0]!.text).toMatch(/^[\uE000-\uF8FF\s]+$/u);
    const result = ok(await read(GARBLED.file, { pages: "scans-and-garbled" }));
    const [page] = result.pages;
    expect(page!.source).toBe("ocr");
    expect(page!.garbled).toBeUndefined();
    expect(pageFlags(page!)).toEqual(["ocr"]);
    expectParagraphs(page!.text, GARBLED.ocr.expected.reflow);
    // flag-scans' note stays: it is about the PDF's text layer, which is what the file holds.
    expect(result.warnings.map((w) => w.code)).toEqual(["garbled_text", "ocr_pages"]);
  });
});

describe("ocr stage languages", () => {
  it("reads German umlauts and ß with the deu language pack (Debian tesseract-ocr-deu)", async () => {
    const result = ok(await read(GERMAN.file, { languages: GERMAN.ocr.languages }));
    const text = textOutput(result.pages, "plain", false).trimEnd();
    for (const word of GERMAN.ocr.mustContain!) expect(text).toContain(word);
    expectParagraphs(text, GERMAN.ocr.expected.reflow);
    expect((result.pages[0] as PageRecord).ocr!.languages).toEqual(["deu"]);
  });

  it("builds the default stages with ocr after flag-scans and before strip-furniture", () => {
    expect(withOcr(DEFAULT_STAGES).map((s) => s.type)).toEqual(["extract", "flag-scans", "ocr", "strip-furniture", "dehyphenate"]);
  });
});
