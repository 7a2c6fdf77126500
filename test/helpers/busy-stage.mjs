// A stage of the tests' own that keeps its worker's event loop busy, as pdf.js does inflating a
// big stream: for a document whose file name contains `hold`, it writes `dir/busy-<pid>` and
// then spins, synchronously, until `dir/release` exists (two minutes at most). Nothing the
// worker would hear through its event loop — its parent's IPC channel closing — reaches it meanwhile.
import { existsSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { defer, mergeMap } from "rxjs";
import { defineStage, z } from "../../dist/plugin.js";

const LONGEST_MS = 120_000;

export default defineStage({
  type: "busy",
  summary: "Spins synchronously on chosen documents until a file appears (tests only).",
  options: z.strictObject({
    hold: z.string().describe("Documents whose file name contains this keep the worker busy."),
    dir: z.string().describe("Where `busy-<pid>` is written and `release` is waited for."),
  }),
  examples: [{ hold: "slow", dir: "gate" }],
  create: (opts) => ({
    apply(records, context) {
      if (!basename(context.input.item.uri).includes(opts.hold)) return records;
      return defer(async () => {
        writeFileSync(join(opts.dir, `busy-${process.pid}`), `${process.ppid}\n`);
        const end = Date.now() + LONGEST_MS;
        while (!existsSync(join(opts.dir, "release")) && Date.now() < end) {
          // spinning: the event loop does not turn
        }
      }).pipe(mergeMap(() => records));
    },
  }),
});
