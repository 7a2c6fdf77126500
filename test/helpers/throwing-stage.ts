// A third-party stage that fails every document once its pages arrive: what a bug in a user's
// stage looks like to the run.
import { map } from "rxjs";
import { z } from "zod";
import { defineStage } from "../../src/plugin.js";

export default defineStage({
  type: "throwing",
  summary: "Throws on the first record it sees (a test stage).",
  options: z.strictObject({}),
  examples: [{}],
  create: () => ({
    apply: (records) =>
      records.pipe(
        map(() => {
          throw new TypeError("Cannot read properties of undefined (reading 'text')");
        }),
      ),
  }),
});
