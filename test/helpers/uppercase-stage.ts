// A third-party stage as a user would write one: a module whose default export is a declaration.
import { map } from "rxjs";
import { z } from "zod";
import { defineStage } from "../../src/plugin.js";

export default defineStage({
  type: "uppercase",
  summary: "Upper-cases page text (a test stage).",
  options: z.strictObject({}),
  examples: [{}],
  create: () => ({ apply: (records) => records.pipe(map((p) => ({ ...p, text: p.text.toUpperCase() }))) }),
});
