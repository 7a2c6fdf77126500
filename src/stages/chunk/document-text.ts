/**
 * The document text that chunk offsets point into, with where each page sits in it: core
 * `documentLayout` (src/core/page-text.ts), which is what `pagestream extract` prints.
 */
import { documentLayout, type PageSpan } from "../../core/page-text.js";
import type { PageRecord } from "../../core/records.js";

export type { PageSpan };

export interface DocumentText {
  text: string;
  /** The pages that have text, in page order. */
  pages: PageSpan[];
}

export function documentText(pages: readonly PageRecord[]): DocumentText {
  return documentLayout(pages);
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
