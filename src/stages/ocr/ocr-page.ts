/**
 * An OCR page's record: the words as runs, laid out by extraction's own assembly (lines by
 * baseline, columns, tables, then paragraphs with the document's line gap for sparse pages), in
 * place of the text layer the page had. Only the facts about that text layer go; the page's
 * number, size, scan verdict and stray text stay.
 */
import { bottomUpToDisplay } from "../../text/page-boxes.js";
import type { OcrFacts, PageRecord } from "../../core/records.js";
import { layoutParagraphs, layoutRuns, type LayoutOptions, type PageLines } from "../extract/page-layout.js";
import { ocrRuns } from "./ocr-runs.js";
import type { OcrWord } from "./tsv.js";

export interface OcrLayout {
  lines: PageLines;
  /** The words laid out (Tesseract's, less specks). */
  words: OcrWord[];
  skewDegrees: number;
}

/** Phase one: the page's words → lines in reading order. */
export function layoutOcrWords(page: PageRecord, words: readonly OcrWord[], image: { width: number; height: number }, layout: LayoutOptions, deskew: boolean): OcrLayout {
  const frame = { width: page.width, height: page.height, imageWidth: image.width, imageHeight: image.height };
  const { runs, words: kept, skewDegrees } = ocrRuns(words, frame, { deskew });
  return { lines: layoutRuns(runs, layout, "OCR words, in geometric order"), words: kept, skewDegrees };
}

/** Phase two: paragraphs and text, and the page record that carries them. */
export function ocrPageRecord(page: PageRecord, lines: PageLines, layout: LayoutOptions, fallbackGap: number, facts: OcrFacts): PageRecord {
  const laid = layoutParagraphs(lines, layout, fallbackGap);
  // The text layer's own facts describe text that is gone.
  const { garbled: _garbled, ocrLayer: _ocrLayer, invisibleText: _invisible, ...rest } = page;
  return {
    ...rest,
    // OCR words stand on the displayed page, y up from its bottom edge (ocr-runs.ts).
    toDisplay: bottomUpToDisplay(page.height),
    lines: laid.lines,
    paragraphs: laid.paragraphs,
    text: laid.text,
    empty: laid.text.length === 0,
    orderSource: lines.orderSource,
    orderReason: lines.orderReason,
    untaggedGlyphs: 0,
    columns: lines.columns,
    source: "ocr",
    ocr: facts,
  };
}
