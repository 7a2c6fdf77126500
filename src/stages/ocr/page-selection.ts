/**
 * Which pages OCR reads. A page whose text layer is good is never replaced unless asked for
 * (`all`): OCR is a guess at letters, the text layer is what the author wrote.
 */
import type { PageRecord } from "../../core/records.js";

/**
 * scans: pages flag-scans found without selectable text; scans-and-garbled: also pages whose
 * text did not map to Unicode (a broken font encoding: the glyphs print, the text is noise);
 * all: every page, replacing any text layer (one you do not trust, e.g. a poor OCR layer).
 */
export const OCR_PAGE_CHOICES = ["scans", "scans-and-garbled", "all"] as const;
export type OcrPageChoice = (typeof OCR_PAGE_CHOICES)[number];

export function needsOcr(page: PageRecord, choice: OcrPageChoice): boolean {
  if (choice === "all" || page.scan) return true;
  return choice === "scans-and-garbled" && page.garbled !== undefined;
}
