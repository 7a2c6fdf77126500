/**
 * The document text that chunk offsets point into: core `documentText` (src/core/page-text.ts),
 * which is what `pagestream extract` prints without its final newline — the pages' texts in
 * order, one blank line between them, one space where a paragraph runs over a page break
 * (`continues`). Pages without text add nothing. This module adds where each page's text sits
 * in it; a test checks that the two agree.
 */
import { documentText as coreDocumentText } from "../../core/page-text.js";
import type { PageRecord } from "../../core/records.js";

/** Where a page's text sits in the document text (end exclusive). */
export interface PageSpan {
  number: number;
  start: number;
  end: number;
}

export interface DocumentText {
  text: string;
  /** The pages that have text, in page order. */
  pages: PageSpan[];
}

export function documentText(pages: readonly PageRecord[]): DocumentText {
  const text = coreDocumentText(pages);
  const spans: PageSpan[] = [];
  let offset = 0;
  let continues = false;
  for (const page of pages) {
    if (page.text.length === 0) continue;
    if (spans.length > 0) offset += continues ? 1 : 2; // " " or "\n\n", as core documentText joins them
    spans.push({ number: page.number, start: offset, end: offset + page.text.length });
    offset += page.text.length;
    continues = (page as { continues?: unknown }).continues === true;
  }
  if (offset !== text.length) throw new Error(`page offsets (${offset}) disagree with the document text (${text.length} characters)`);
  return { text, pages: spans };
}

/** The page whose text holds `offset`; for an offset in a separator, the page before it. */
export function pageAt(pages: readonly PageSpan[], offset: number): PageSpan {
  if (pages.length === 0) throw new Error("the document has no text");
  let lo = 0;
  let hi = pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pages[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return pages[lo]!;
}
