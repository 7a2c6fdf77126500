import { z } from "zod";
import { withHeadingLevelsClosed } from "../../text/block-roles.js";
import { withoutLines } from "../../text/page-edit.js";
import { defineStage } from "../../core/plugin.js";
import type { PageRecord } from "../../core/records.js";
import { pagesOf, wholeDocument } from "../../core/stage-operators.js";
import { detectFurniture } from "./furniture-detection.js";
import { runningTitles } from "./running-titles.js";

const options = z.strictObject({
  band_ratio: z
    .number()
    .min(0)
    .max(0.5)
    .default(0.12)
    .describe("Share of the page height at the top and the bottom of the text area where running headers and footers stand."),
  max_lines_per_band: z.int().min(1).default(3).describe("Outermost lines of each page considered in each band."),
  window_pages: z
    .int()
    .min(1)
    .default(2)
    .describe("A page is compared with this many pages before and after it (2 catches alternating left/right headers and chapter headers)."),
  min_pages: z
    .int()
    .min(2)
    .default(2)
    .describe("A line is furniture when it stands, at the same height, on at least this many pages of the window (itself included). Two pages is the least evidence, so a 2–3 page document still loses its repeated header."),
  isolation_ratio: z
    .number()
    .min(0)
    .default(1.3)
    .describe("Furniture must be set apart from the body by at least this × the body's line gap, so repeated body text is never taken."),
});

export default defineStage({
  type: "strip-furniture",
  summary: "Removes running headers, footers and page numbers, keeping them (with the printed page label and the running titles they say) on the page record.",
  options,
  examples: [{}, { band_ratio: 0.15, min_pages: 3 }],
  create(opts) {
    const settings = {
      bandRatio: opts.band_ratio,
      maxLinesPerBand: opts.max_lines_per_band,
      windowPages: opts.window_pages,
      minPages: opts.min_pages,
      isolationRatio: opts.isolation_ratio,
    };
    return {
      apply: (records) =>
        records.pipe(
          wholeDocument((all) => {
            const found = detectFurniture(pagesOf(all), settings);
            const pages = pagesOf(all).map((record, p) => {
              const { remove, header, footer, pageLabel } = found[p]!;
              const page: PageRecord = withoutLines(record, remove);
              const titles = runningTitles([...header, ...footer], pageLabel);
              return { ...page, furniture: { header, footer, ...(titles.length ? { titles } : {}), ...(pageLabel ? { pageLabel } : {}) } };
            });
            // A running header may have been read as a heading: its level goes with it.
            const closed = withHeadingLevelsClosed(pages);
            let p = 0;
            return all.map((record) => (record.type === "page" ? closed[p++]! : record));
          }),
        ),
    };
  },
});
