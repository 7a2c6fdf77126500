// A source of the tests' own whose reads of chosen files fail, as a share that drops out or a
// bucket that throttles: the built-in folder source, except that a file whose name contains a
// key of `fail` fails to read (`read_failed`, a failure another try may undo) as many times as
// that key's number before it reads — counted across processes and machines by the files it
// writes to `count_dir`. Plain
// JavaScript, loaded by its path in every worker, like a user's source.
import { readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DocumentError } from "../../dist/core/document-error.js";
import folder from "../../dist/sources/folder.js";
import { defineSource, z } from "../../dist/plugin.js";

export default defineSource({
  type: "flaky-folder",
  summary: "The folder source, failing the first reads of chosen files (tests only).",
  options: z.strictObject({
    path: z.string().describe("The folder."),
    fail: z.record(z.string(), z.int().min(0)).describe("Part of a file name → how many reads of it fail before one works (a large number: all of them)."),
    count_dir: z.string().describe("Where each failed read leaves a file, so every process counts the same."),
  }),
  examples: [{ path: "in", fail: { flaky: 1 }, count_dir: "reads" }],
  async create(opts, context) {
    const inner = await folder.create(folder.options.parse({ path: opts.path, stable_seconds: 0 }), context);
    return {
      list: () => inner.list(),
      async read(item, signal) {
        const name = basename(item.uri);
        const failures = Object.entries(opts.fail).find(([part]) => name.includes(part))?.[1] ?? 0;
        if (failures > 0) {
          const failed = readdirSync(opts.count_dir).filter((f) => f.startsWith(`${name}.`)).length;
          if (failed < failures) {
            writeFileSync(join(opts.count_dir, `${name}.${failed + 1}`), `${process.pid}\n`);
            throw new DocumentError("read_failed", `the share did not answer (try ${failed + 1})`);
          }
        }
        return inner.read(item, signal);
      },
    };
  },
});
