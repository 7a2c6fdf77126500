/**
 * Lines → paragraphs. A line starts a new paragraph when any of the cues real typesetting uses
 * says so (DOMAIN §2):
 * - a vertical gap wider than `paragraphRatio` × the page's median line gap (1.45), the cue of
 *   word processors and web-to-PDF output;
 * - a change of font size (a heading, a footnote) or between monospaced and proportional text;
 * - a first-line indent of more than `indentRatio` × the font size, when the line after it
 *   returns to the margin (LaTeX sets paragraphs with no extra gap, only this indent);
 * - the line before it ended short: its first word would have fitted there, so the break was
 *   deliberate. This works for justified and ragged-right text alike.
 * Monospaced runs of lines (code listings, typewriter blocks) become `verbatim` paragraphs that
 * keep their line breaks and indentation even when the page is reflowed.
 */
import type { Line, Paragraph } from "../../core/records.js";

export interface ParagraphOptions {
  /** A gap between baselines wider than this × the page's median gap starts a paragraph. */
  paragraphRatio: number;
  /** A first line indented by more than this × font size starts a paragraph. */
  indentRatio: number;
  /** Used to estimate the width of a word space when testing for a short last line. */
  spaceRatio: number;
}

/** Font sizes closer than this (points) count as the same size: rounding in producers. */
const SAME_SIZE_POINTS = 0.6;

export function segmentParagraphs(lines: readonly Line[], options: ParagraphOptions): Paragraph[] {
  if (lines.length === 0) return [];
  const medianGap = median(
    lines.slice(1).map((l, i) => lines[i]!.y - l.y).filter((g) => g > 0),
  );
  const paragraphs: Paragraph[] = [];
  let start = 0;
  for (let i = 1; i < lines.length; i++) {
    if (startsParagraph(lines, i, medianGap, options)) {
      paragraphs.push(makeParagraph(lines, start, i));
      start = i;
    }
  }
  paragraphs.push(makeParagraph(lines, start, lines.length));
  return paragraphs;
}

function makeParagraph(lines: readonly Line[], start: number, end: number): Paragraph {
  const verbatim = lines.slice(start, end).every(isMonospace);
  return { start, end, kind: verbatim ? "verbatim" : "text" };
}

function startsParagraph(lines: readonly Line[], i: number, medianGap: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  const gap = prev.y - line.y;
  // A line above the previous one: the text went back up (a new column, a float).
  if (gap <= 0) return true;
  if (medianGap > 0 && gap > o.paragraphRatio * medianGap) return true;
  if (Math.abs(line.fontSize - prev.fontSize) > SAME_SIZE_POINTS) return true;
  if (isMonospace(line) !== isMonospace(prev)) return true;
  // Code keeps its own indentation and short lines: only gaps and font changes split it.
  if (isMonospace(line)) return false;
  // A line that starts outside the previous one's horizontal extent is not its continuation.
  if (line.x > prev.x + prev.width || prev.x > line.x + line.width) return true;
  return isIndentedFirstLine(lines, i, o) || followsShortLine(lines, i, o);
}

function isIndentedFirstLine(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  const indent = o.indentRatio * line.fontSize;
  if (line.x - prev.x <= indent) return false;
  const next = lines[i + 1];
  // The indent marks a first line only when the text returns to the margin after it;
  // a hanging indent (list item continuation) stays indented.
  if (!next || next.fontSize !== line.fontSize) return true;
  return next.x < line.x - indent / 2;
}

function followsShortLine(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  const right = rightMargin(lines, i);
  const room = right - (prev.x + prev.width);
  const space = o.spaceRatio * line.fontSize;
  return room > firstWordWidth(line) + 2 * space;
}

/** The right edge of the text around line i: the furthest right end among its neighbours of the same size. */
function rightMargin(lines: readonly Line[], i: number): number {
  const size = lines[i]!.fontSize;
  let right = -Infinity;
  for (let j = Math.max(0, i - 3); j <= Math.min(lines.length - 1, i + 2); j++) {
    const l = lines[j]!;
    if (Math.abs(l.fontSize - size) <= SAME_SIZE_POINTS) right = Math.max(right, l.x + l.width);
  }
  return right;
}

function firstWordWidth(line: Line): number {
  const run = line.runs[0];
  if (!run || run.text.length === 0) return 0;
  const word = run.text.trimStart().split(/\s/)[0] ?? "";
  return (run.width * word.length) / run.text.length;
}

function isMonospace(line: Line): boolean {
  return line.runs.every((r) => r.monospace);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
