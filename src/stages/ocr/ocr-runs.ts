/**
 * OCR words → text runs in the page's frame (PDF points, y up), so that OCR pages go through the
 * same line, column, table and paragraph assembly as a text layer. What a run needs and a word
 * box does not say is estimated from the boxes: the scan's tilt, taken out (skew.ts); each line's
 * font size (text-size.ts); its baseline, the median of its words' bottoms lowered by the descent
 * of letters that hang below (g, p, y), over the boxes that fit their letters.
 *
 * Every word after the first on one of Tesseract's lines has a space before it: Tesseract has
 * already decided where the words are.
 */
import { textRun, type TextRun } from "../../core/records.js";
import { median } from "../../text/text-geometry.js";
import { ascentOf, descentOf, letterClass } from "./letter-heights.js";
import { skewOf, unrotate, type WordBox } from "./skew.js";
import { ASCENDER_EM, lineSizes, X_HEIGHT_EM } from "./text-size.js";
import type { OcrWord } from "./tsv.js";

export interface PageFrame {
  /** The page as displayed, in points. */
  width: number;
  height: number;
  /** The image Tesseract read, in pixels. */
  imageWidth: number;
  imageHeight: number;
}

export interface OcrRuns {
  runs: TextRun[];
  /** The words the runs were made of: Tesseract's, less the specks of dirt it read as punctuation. */
  words: OcrWord[];
  /** The tilt found and taken out, degrees counter-clockwise (0 when not deskewed). */
  skewDegrees: number;
}

/** The font name OCR runs carry: no font is known. */
export const OCR_FONT = "OCR";

/** A skew below this (degrees) is left alone: nothing to gain, and every box would move. */
const MIN_SKEW_DEGREES = 0.05;
/** A box this much taller than its letters should be says nothing about where the baseline is. */
const INFLATED_BOX = 1.25;
/**
 * A "word" without a letter or digit whose box is smaller than this (ems) both ways is a speck
 * of dirt read as punctuation (a 3 × 3 px ";" at 300 dpi, confidence 11). A dash is wider, a
 * bullet taller.
 */
const SPECK_EM = 0.2;

export function ocrRuns(words: readonly OcrWord[], frame: PageFrame, options: { deskew: boolean }): OcrRuns {
  const sx = frame.width / frame.imageWidth;
  const sy = frame.height / frame.imageHeight;
  const lines = tesseractLines(words).map((line) =>
    line.map((w): WordBox & { word: OcrWord } => ({ word: w, text: w.text, x0: w.left * sx, x1: (w.left + w.width) * sx, bottom: frame.height - (w.top + w.height) * sy, top: frame.height - w.top * sy })),
  );
  const found = options.deskew ? skewOf(lines, frame.width) : 0;
  const angle = Math.abs((found * 180) / Math.PI) >= MIN_SKEW_DEGREES ? found : 0;
  const sizes = lineSizes(lines.map((line) => line.map((b) => ({ text: b.text, height: b.top - b.bottom }))));

  const runs: TextRun[] = [];
  const kept: OcrWord[] = [];
  lines.forEach((line, k) => {
    const fontSize = sizes[k]!;
    const words = line.filter((b) => !isSpeck(b, fontSize));
    kept.push(...words.map((b) => b.word));
    const placed = words.map((b) => ({ ...b, ...(angle ? unrotate(b.x0, b.bottom, angle, frame.width / 2, frame.height / 2) : { x: b.x0, y: b.bottom }) }));
    const fitting = placed.filter((b) => b.top - b.bottom <= INFLATED_BOX * expectedHeight(b.text, fontSize));
    const baseline = median((fitting.length ? fitting : placed).map((b) => b.y + descentOf(b.text) * fontSize));
    placed.forEach((b, i) => {
      runs.push(textRun({ text: b.text, x: b.x, y: baseline, width: b.x1 - b.x0, fontSize, fontName: OCR_FONT, separateWord: i > 0 ? true : undefined }));
    });
  });
  return { runs, words: kept, skewDegrees: angle ? Math.round(((angle * 180) / Math.PI) * 100) / 100 : 0 };
}

function isSpeck(box: WordBox, em: number): boolean {
  return letterClass(box.text) === "no-letters" && box.x1 - box.x0 < SPECK_EM * em && box.top - box.bottom < SPECK_EM * em;
}

/** The height a word's letters take at `em`; words without letters (a dash) count as one em. */
function expectedHeight(text: string, em: number): number {
  if (letterClass(text) === "no-letters") return em;
  return (ascentOf(text, ASCENDER_EM, X_HEIGHT_EM) + descentOf(text)) * em;
}

/** Tesseract's lines (block, paragraph, line) in its order, each left to right. */
function tesseractLines(words: readonly OcrWord[]): OcrWord[][] {
  const lines = new Map<string, OcrWord[]>();
  for (const w of words) {
    const key = `${w.block}:${w.paragraph}:${w.line}`;
    const line = lines.get(key);
    if (line) line.push(w);
    else lines.set(key, [w]);
  }
  return [...lines.values()].map((l) => l.sort((a, b) => a.left - b.left));
}
