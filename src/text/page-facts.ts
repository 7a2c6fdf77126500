/**
 * Facts the cleaning stages put on a page, read in one place by the chunk stage and the sinks,
 * without assuming those stages ran: a page without them has no label and no flags.
 */
import type { DocumentInfo, Furniture, PageRecord } from "../core/records.js";

/** The label printed on the page ("iv", "7"), when furniture detection found one. */
export function pageLabel(page: PageRecord): string | undefined {
  const label = page.furniture?.pageLabel?.trim();
  return label ? label : undefined;
}

/** The running header and footer lines taken off the page, if the stage ran. */
export function pageFurniture(page: PageRecord): Furniture | undefined {
  return page.furniture;
}

/** The page's running titles: its header and footer lines without page numbers (strip-furniture), [] when it found none. */
export function runningTitles(page: PageRecord): string[] {
  return page.furniture?.titles ?? [];
}

/**
 * Flag names, sorted: `columns_uncertain` (reading order uncertain), `garbled` (unmapped
 * characters), `ocr` (the text was read from the page image by the ocr stage), `ocr_layer`
 * (the PDF's text is an OCR layer someone else made), `scan`.
 */
export function pageFlags(page: PageRecord): string[] {
  const flags: string[] = [];
  if (page.columns === "uncertain") flags.push("columns_uncertain");
  if (page.garbled !== undefined) flags.push("garbled");
  if (page.source === "ocr") flags.push("ocr");
  if (page.ocrLayer) flags.push("ocr_layer");
  if (page.scan) flags.push("scan");
  return flags;
}

/** True when the page's last paragraph goes on at the top of the next page. */
export function pageContinues(page: PageRecord): boolean {
  return page.continues === true;
}

/** A document's status for the sinks: `scan` when flag-scans judged the whole document a scan. */
export function documentStatus(document: DocumentInfo): "ok" | "scan" {
  return document.scan ? "scan" : "ok";
}
