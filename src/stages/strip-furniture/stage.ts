import { z } from "zod";
import { withHeadingLevelsClosed } from "../../text/block-roles.js";
import { withoutLines } from "../../text/page-edit.js";
import { defineStage } from "../../core/plugin.js";
import type { PageRecord } from "../../core/records.js";
import { pagesOf, pageWindows } from "../../core/stage-operators.js";
import { detectFurniture, type PageFurniture } from "./furniture-detection.js";
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
    /** A page without its furniture, which is kept on the record with its label and titles. */
    const stripped = (record: PageRecord, { remove, header, footer, pageLabel }: PageFurniture): PageRecord => {
      const page: PageRecord = withoutLines(record, remove);
      const titles = runningTitles([...header, ...footer], pageLabel);
      return { ...page, furniture: { header, footer, ...(titles.length ? { titles } : {}), ...(pageLabel ? { pageLabel } : {}) } };
    };
    return {
      // A window's pages are compared with `window_pages` pages on either side, across the
      // window's edges too: the last pages of a window wait for the next one (`carry`), and the
      // pages already gone out stay as context (`state`). The text area's bands and the line
      // pitch are measured over the window: over the whole document when it is one window.
      apply: (records, context) =>
        records.pipe(
          pageWindows<PageRecord[]>(context, ({ records: window, carried, state: before = [], last }) => {
            const held = [...carried, ...window];
            const pages = pagesOf(held);
            const found = detectFurniture([...before, ...pages], settings).slice(before.length);
            // The pages that wait for the next window: they need the pages after them.
            const waiting = last ? 0 : Math.min(settings.windowPages, pages.length);
            const going = pages.length - waiting;
            // A running header may have been read as a heading: its level goes with it.
            const closed = withHeadingLevelsClosed(pages.slice(0, going).map((page, p) => stripped(page, found[p]!)));
            let p = 0;
            const cut = waiting ? held.indexOf(pages[going]!) : held.length;
            return {
              records: held.slice(0, cut).map((record) => (record.type === "page" ? closed[p++]! : record)),
              carry: held.slice(cut),
              state: [...before, ...pages.slice(0, going)].slice(-settings.windowPages),
            };
          }),
        ),
    };
  },
});
