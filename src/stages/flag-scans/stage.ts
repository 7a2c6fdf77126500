import { z } from "zod";
import { rerender } from "../../text/page-edit.js";
import { defineStage } from "../../core/plugin.js";
import type { DocRecord, PageRecord } from "../../core/records.js";
import { pageWindows } from "../../core/stage-operators.js";
import { isScanDocument, pageList, pagesWithoutTextWarning, pageVerdict } from "./scan-verdict.js";

const options = z.strictObject({
  min_chars_per_page: z
    .int()
    .min(0)
    .default(12)
    .describe("A document averaging fewer characters per page is a scan, and a page with fewer has no selectable text (docs/extraction.md §8.1)."),
  drop_stray_text: z
    .boolean()
    .default(true)
    .describe("Take the few characters off a page without selectable text (a stamped page number, a scanner's mark); they are kept in `strayText`."),
  // 0.1: real text has next to no unmapped characters, a few dingbats stay far under it, a broken
  // encoding maps nearly everything (docs/extraction.md §8.5).
  garbled_share: z
    .number()
    .min(0)
    .max(1)
    .default(0.1)
    .describe("A page whose share of unmapped characters (U+FFFD, private use) is above this is reported garbled."),
});

/** What the pages so far said, for the document's verdict: characters per page, scanned and garbled pages. */
interface DocumentScan {
  chars: number[];
  scanPages: number[];
  garbled: number[];
}

export default defineStage({
  type: "flag-scans",
  summary: "Flags scanned documents and pages without selectable text, OCR layers and garbled text, and says which pages.",
  options,
  examples: [{}, { min_chars_per_page: 20, drop_stray_text: false }],
  create(opts) {
    const settings = { minCharsPerPage: opts.min_chars_per_page, garbledShare: opts.garbled_share };
    return {
      // Each page is judged on its own: windows only bound what is held; the document's verdict
      // is made from counts carried to its last window.
      apply: (records, context) =>
        records.pipe(
          pageWindows<DocumentScan>(context, ({ records: window, state, last }) => {
            const seen = state ?? { chars: [], scanPages: [], garbled: [] };
            const out: DocRecord[] = window.map((record) => {
              if (record.type !== "page") return record;
              const verdict = pageVerdict(record, settings);
              let page: PageRecord = { ...record, ...(verdict.ocrLayer ? { ocrLayer: true } : {}), ...(verdict.garbled !== undefined ? { garbled: verdict.garbled } : {}) };
              if (verdict.scan) {
                seen.scanPages.push(page.number);
                page = { ...page, scan: true, scanReason: verdict.reason! };
                if (opts.drop_stray_text && page.text) page = rerender({ ...page, strayText: page.text, lines: [], paragraphs: [] });
              }
              // The text the verdict counted: a scan's stray text moved aside is that text.
              seen.chars.push(verdict.chars);
              if (page.garbled !== undefined) seen.garbled.push(page.number);
              return page;
            });
            if (!last) return { records: out, state: seen };
            const { scanPages, garbled } = seen;
            const scan = isScanDocument(seen.chars, opts.min_chars_per_page);
            if (context.document) context.document = { ...context.document, scan, scanPages };
            if (scanPages.length) context.warnings.push(pagesWithoutTextWarning(scanPages));
            if (garbled.length) {
              context.warnings.push({ code: "garbled_text", message: `${garbled.length} page(s) have text that did not map to Unicode (a broken font encoding): ${pageList(garbled)}`, pages: garbled });
            }
            return { records: out };
          }),
        ),
    };
  },
});
