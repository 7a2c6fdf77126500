/**
 * One page's text items → lines, paragraphs and text. Pure: tests feed it items directly.
 * Body text comes first in reading order; text in another direction (a vertical margin note)
 * follows as its own lines and paragraphs, so it can never break into a sentence.
 */
import { renderPageText } from "../../core/page-text.js";
import type { Line, Paragraph, TextMode } from "../../core/records.js";
import { groupLines, type LineGroupingOptions } from "./line-grouping.js";
import { segmentParagraphs, type ParagraphOptions } from "./paragraphs.js";
import { normalizeLineText, type NormalizationOptions } from "./text-normalization.js";
import { orientRuns, type PdfFontStyles, type PdfTextItem } from "./text-runs.js";

export interface LayoutOptions extends LineGroupingOptions, ParagraphOptions, NormalizationOptions {
  mode: TextMode;
}

export interface PageLayout {
  lines: Line[];
  paragraphs: Paragraph[];
  text: string;
}

export function layoutPage(items: readonly PdfTextItem[], styles: PdfFontStyles, options: LayoutOptions): PageLayout {
  const { body, offAxis } = orientRuns(items, styles);
  const lines: Line[] = [];
  const paragraphs: Paragraph[] = [];
  const addBlock = (blockLines: Line[]) => {
    const offset = lines.length;
    for (const line of blockLines) line.text = normalizeLineText(line.text, options).trim();
    const kept = blockLines.filter((l) => l.text.length > 0);
    lines.push(...kept);
    for (const p of segmentParagraphs(kept, options)) {
      paragraphs.push({ ...p, start: p.start + offset, end: p.end + offset });
    }
  };
  addBlock(groupLines(body, options));
  for (const group of offAxis) {
    const groupLinesOffAxis = groupLines(group, options);
    for (const line of groupLinesOffAxis) line.offAxis = true;
    addBlock(groupLinesOffAxis);
  }
  return { lines, paragraphs, text: renderPageText(lines, paragraphs, options.mode) };
}
