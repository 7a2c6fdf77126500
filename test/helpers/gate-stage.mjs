// A stage of the tests' own that holds chosen documents until the test lets them go: a job that
// is slow for real (its worker is busy, its lock held), without a sleep anywhere. For a document
// whose file name contains `hold`, it writes `started <name> <pid> <ppid>` to a file in `dir` (the
// ppid is the process that runs the worker pool: a `pagestream worker` or a local run) and waits
// until `dir/release` exists; every other document passes at once. Plain JavaScript, loaded by
// its path in every worker, like a user's stage.
import { existsSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { defer, mergeMap } from "rxjs";
import { defineStage, z } from "../../dist/plugin.js";

const POLL_MS = 50;

export default defineStage({
  type: "gate",
  summary: "Holds chosen documents until a file appears (tests only).",
  options: z.strictObject({
    hold: z.string().describe("Documents whose file name contains this are held."),
    dir: z.string().describe("Where `started-*` marks are written and `release` is waited for."),
  }),
  examples: [{ hold: "slow", dir: "gate" }],
  create: (opts) => ({
    apply(records, context) {
      const name = basename(context.input.item.uri);
      if (!name.includes(opts.hold)) return records;
      return defer(async () => {
        writeFileSync(join(opts.dir, `started-${name}-${process.pid}`), `started ${name} ${process.pid} ${process.ppid}\n`);
        while (!existsSync(join(opts.dir, "release"))) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }).pipe(mergeMap(() => records));
    },
  }),
});
