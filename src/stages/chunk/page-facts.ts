/**
 * Facts about a page that other stages may put on its record: a printed page label (found with
 * the running header or footer), and the conditions a consumer of its text may care about — a
 * scanned page, text from an OCR layer, columns that could not be told apart — and whether its
 * last paragraph goes on at the top of the next page (dehyphenation finds that). Read in this one
 * place, without assuming the stage that adds them ran: a page without them has no label and
 * no flags. Used by the chunk stage and by the sinks that store pages.
 */
import type { PageRecord } from "../../core/records.js";

interface PageFacts {
  furniture?: { pageLabel?: unknown };
  scan?: unknown;
  ocrLayer?: unknown;
  ocr_layer?: unknown;
  columns?: unknown;
  continues?: unknown;
}

const facts = (page: PageRecord) => page as unknown as PageFacts;

/** The label printed on the page ("iv", "A-3"), when furniture detection found one. */
export function pageLabel(page: PageRecord): string | undefined {
  const label = facts(page).furniture?.pageLabel;
  return typeof label === "string" && label.trim() !== "" ? label.trim() : undefined;
}

/** The page's furniture record as a stage left it, if any. */
export function pageFurniture(page: PageRecord): unknown {
  return facts(page).furniture;
}

/** Flag names, sorted: `columns_uncertain` (reading order uncertain), `ocr_layer`, `scan`. */
export function pageFlags(page: PageRecord): string[] {
  const f = facts(page);
  const flags: string[] = [];
  if (f.columns === "uncertain") flags.push("columns_uncertain");
  if (f.ocrLayer === true || f.ocr_layer === true) flags.push("ocr_layer");
  if (f.scan === true) flags.push("scan");
  return flags;
}

/** True when the page's last paragraph goes on at the top of the next page. */
export function pageContinues(page: PageRecord): boolean {
  return facts(page).continues === true;
}
