/**
 * A document's text — what `pagestream extract` prints, what chunk offsets point into, and what
 * the archive's page spans index — with where each page sits in it. One function, used by the
 * chunk stage, the sinks and the CLI alike.
 */
import type { PageRecord } from "../core/records.js";

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

/**
 * The pages' texts in order, one blank line between them, except where a paragraph runs over a
 * page break (`continues`, set by dehyphenate): there the two halves are joined by a space into
 * one paragraph. Pages without text leave no trace.
 */
export function documentText(pages: readonly Pick<PageRecord, "number" | "text" | "continues">[]): DocumentText {
  let text = "";
  let joinNext = false;
  const spans: PageSpan[] = [];
  for (const page of pages) {
    if (!page.text) continue;
    if (spans.length) text += joinNext ? " " : "\n\n";
    spans.push({ number: page.number, start: text.length, end: text.length + page.text.length });
    text += page.text;
    joinNext = page.continues === true;
  }
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
