// A stage of the tests' own that does what pdf.js did with a page it could not parse: for a
// document whose file name contains `orphan`, it leaves a promise rejected with no one listening
// as the document's records end. Node reports such a rejection only once the round of promise
// callbacks it fell in is over, after the document's last one.
import { basename } from "node:path";
import { finalize } from "rxjs";
import { defineStage, z } from "../../dist/plugin.js";

export default defineStage({
  type: "orphan",
  summary: "Leaves a rejected promise behind on chosen documents (tests only).",
  options: z.strictObject({
    orphan: z.string().describe("Documents whose file name contains this leave the rejection."),
  }),
  examples: [{ orphan: "orphan" }],
  create: (opts) => ({
    apply(records, context) {
      if (!basename(context.input.item.uri).includes(opts.orphan)) return records;
      return records.pipe(
        finalize(() => {
          void Promise.reject(new Error("left behind by the orphan stage"));
        }),
      );
    },
  }),
});
