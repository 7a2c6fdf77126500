// A source of the tests' own, loaded by its path as a user's would be (and in every worker,
// which is why it is plain JavaScript): the built-in folder source, listed in reverse order when
// asked, writing to `read_log` which process read which item — so a test can see that the run
// never reads a document itself and that the listing order does not change what comes out.
import { appendFileSync } from "node:fs";
import folder from "../../dist/sources/folder.js";
import { defineSource, z } from "../../dist/plugin.js";

export default defineSource({
  type: "recording-folder",
  summary: "The folder source, optionally in reverse order, logging who reads what (tests only).",
  options: z.strictObject({
    path: z.string().describe("The folder."),
    reverse: z.boolean().default(false).describe("List in reverse order."),
    read_log: z.string().optional().describe("A file to append `pid path` to for every read."),
  }),
  examples: [{ path: "in" }],
  async create(opts, context) {
    const inner = await folder.create(folder.options.parse({ path: opts.path, stable_seconds: 0 }), context);
    return {
      async *list() {
        const items = [];
        for await (const item of inner.list()) items.push(item);
        yield* opts.reverse ? items.reverse() : items;
      },
      async read(item, signal) {
        if (opts.read_log) appendFileSync(opts.read_log, `${process.pid} ${context.purpose} ${item.path}\n`);
        return inner.read(item, signal);
      },
    };
  },
});
