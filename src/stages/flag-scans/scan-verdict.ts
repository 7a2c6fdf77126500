/**
 * Scanned pages and documents (docs/extraction.md §8). A scanned page is an image: nothing to extract, and
 * the useful answer is to say so.
 * - Document: an average under `minCharsPerPage` characters per page is a scan. The threshold
 *   is not zero because scans carry stamped page numbers and scanner watermarks.
 * - Page: fewer characters than the threshold is a page without selectable text: `image_only`
 *   when it paints an image, `stray_text` when a few characters stand on it, `no_text` when
 *   nothing tells. A page with no text and no image is blank on paper: `empty`, not a scan.
 * - An invisible text layer (render mode 3) is an OCR layer: text, but flagged as such.
 * - Characters that did not map to Unicode (U+FFFD, private use) are reported as `garbled`.
 */
import type { DocumentWarning, PageRecord } from "../../core/records.js";
import { nonSpaceChars } from "../../text/non-space-chars.js";

export interface ScanOptions {
  minCharsPerPage: number;
  /** Share of unmapped characters above which a page is reported garbled. */
  garbledShare: number;
}

export interface PageVerdict {
  /** The page's characters, white space aside (nonSpaceChars): what the document's verdict averages. */
  chars: number;
  scan: boolean;
  reason?: "image_only" | "stray_text" | "no_text";
  ocrLayer: boolean;
  /** Share of unmapped characters, when above the threshold. */
  garbled?: number;
}

const UNMAPPED = /[\uFFFD\uE000-\uF8FF]/gu;

export function pageVerdict(page: PageRecord, options: ScanOptions): PageVerdict {
  const chars = nonSpaceChars(page.text);
  const unmapped = (page.text.match(UNMAPPED) ?? []).length;
  const share = chars ? unmapped / chars : 0;
  const verdict: PageVerdict = { chars, scan: false, ocrLayer: page.invisibleText === true };
  if (share > options.garbledShare) verdict.garbled = Math.round(share * 1000) / 1000;
  if (chars >= options.minCharsPerPage) return verdict;
  // Blank on paper: no text and, as far as extraction looked, no image either.
  if (chars === 0 && page.images === 0) return verdict;
  verdict.scan = true;
  verdict.reason = (page.images ?? 0) > 0 ? "image_only" : chars > 0 ? "stray_text" : "no_text";
  return verdict;
}

/** The average characters per page decide whether the document is a scan (docs/extraction.md §8.1, the scan-table-* fixtures). */
export function isScanDocument(charsPerPage: readonly number[], minCharsPerPage: number): boolean {
  if (charsPerPage.length === 0) return false;
  const average = charsPerPage.reduce((a, b) => a + b, 0) / charsPerPage.length;
  return average < minCharsPerPage;
}

/**
 * "2", "2, 4", "1–40, 52": the page list of a warning (docs/extraction.md §8.1); three or more
 * pages in a row are one range, so a 20,000-page scan is named in a few characters, not 130 KB.
 */
export function pageList(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${pages[i]}–${pages[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(pages[k]));
    i = j + 1;
  }
  return parts.join(", ");
}

/** The warning's code: pages without selectable text that came out empty. */
export const PAGES_WITHOUT_TEXT = "pages_without_text";

/**
 * The warning for the pages without selectable text that came out empty (docs/extraction.md
 * §8.1); `readByOcr` when the ocr stage tried them and found no text.
 */
export function pagesWithoutTextWarning(pages: readonly number[], { readByOcr = false } = {}): DocumentWarning {
  // Until OCR has looked at them, the way to their text is named.
  const hint = readByOcr ? "" : " (the ocr stage reads them: `- type: ocr` after flag-scans, or `extract --ocr`)";
  return {
    code: PAGES_WITHOUT_TEXT,
    message: `${pages.length} page(s) have no selectable text and came out empty: ${pageList(pages)}${hint}`,
    pages: [...pages],
  };
}
