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

/**
 * Flag names, sorted: `columns_uncertain` (reading order uncertain), `garbled` (unmapped
 * characters), `ocr_layer`, `scan`.
 */
export function pageFlags(page: PageRecord): string[] {
  const flags: string[] = [];
  if (page.columns === "uncertain") flags.push("columns_uncertain");
  if (page.garbled !== undefined) flags.push("garbled");
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
