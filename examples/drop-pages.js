// @ts-check
/**
 * An example stage of your own: drops the pages whose text matches a pattern (a cover sheet, a
 * fax header page, "This page intentionally left blank"), so they reach no sink.
 *
 *   stages:
 *     - type: extract
 *     - type: ./examples/drop-pages.js
 *       pattern: "intentionally left blank"
 *       flags: i
 *
 * It is written against `pagestream/plugin` only, the way a stage outside this repository is
 * (`// @ts-check` gives it pagestream's types in an editor, from the package's declarations).
 */
import { defineStage, filterPages, z } from "pagestream/plugin";

const options = z.strictObject({
  pattern: z.string().min(1).describe("A regular expression; a page whose text matches it is dropped."),
  flags: z
    .string()
    .regex(/^[imsu]*$/, "only the flags i, m, s and u")
    .default("")
    .describe("Regular expression flags, e.g. i to ignore case."),
  keep_empty: z.boolean().default(true).describe("Keep pages without text (they still count as pages, e.g. for scan flags)."),
});

export default defineStage({
  type: "drop-pages",
  summary: "Drops the pages whose text matches a regular expression.",
  options,
  examples: [{ pattern: "intentionally left blank", flags: "i" }, { pattern: "^FAX COVER SHEET", keep_empty: false }],
  create(opts) {
    const pattern = new RegExp(opts.pattern, opts.flags);
    return {
      apply: (records) => records.pipe(filterPages((page) => (page.empty ? opts.keep_empty : !pattern.test(page.text)))),
    };
  },
});
