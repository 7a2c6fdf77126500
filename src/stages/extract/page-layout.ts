/**
 * A page's text items → lines, paragraphs and text, in two phases so that a page with too few
 * lines to measure its own line gap (a title page) can use the document's. Pure: tests feed it
 * items directly. Body text comes first; text in another direction (a vertical margin note)
 * follows as its own lines and paragraphs, so it can never break into a sentence.
 */
import { renderPageText } from "../../core/page-text.js";
import type { Line, Paragraph, TextMode } from "../../core/records.js";
import { groupLines, type LineGroupingOptions } from "./line-grouping.js";
import { lineGaps, segmentParagraphs, typicalLineGap, type ParagraphOptions } from "./paragraphs.js";
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

/** A page's lines before paragraphs are found: the body first, then each off-axis group. */
export type LineBlocks = Line[][];

/** Phase one, per page: items → lines, normalised, in blocks that paragraphs never cross. */
export function layoutLines(items: readonly PdfTextItem[], styles: PdfFontStyles, options: LayoutOptions): LineBlocks {
  const { body, offAxis } = orientRuns(items, styles);
  const normalise = (lines: Line[]) => {
    for (const line of lines) line.text = normalizeLineText(line.text, options).trim();
    return lines.filter((l) => l.text.length > 0);
  };
  const blocks = [normalise(groupLines(body, options))];
  for (const group of offAxis) {
    const lines = normalise(groupLines(group, options));
    for (const line of lines) line.offAxis = true;
    blocks.push(lines);
  }
  return blocks.filter((b) => b.length > 0);
}

/** The document's line gap, for pages with too few lines to measure their own. */
export function documentLineGap(pages: readonly LineBlocks[]): number {
  return typicalLineGap(pages.flatMap((blocks) => blocks.flatMap(lineGaps)));
}

/** Phase two: paragraphs and text. */
export function layoutParagraphs(blocks: LineBlocks, options: LayoutOptions, fallbackGap = 0): PageLayout {
  const lines: Line[] = [];
  const paragraphs: Paragraph[] = [];
  for (const block of blocks) {
    const offset = lines.length;
    lines.push(...block);
    for (const p of segmentParagraphs(block, options, fallbackGap)) paragraphs.push({ ...p, start: p.start + offset, end: p.end + offset });
  }
  return { lines, paragraphs, text: renderPageText(lines, paragraphs, options.mode) };
}

/** Both phases for a page on its own (tests, single pages). */
export function layoutPage(items: readonly PdfTextItem[], styles: PdfFontStyles, options: LayoutOptions): PageLayout {
  return layoutParagraphs(layoutLines(items, styles, options), options);
}
