// A PDF on which pdf.js fails outside any call pagestream awaits (a stack overflow in its parser
// on the second of two pages of runaway nesting surfaces as an uncaught error in the worker):
// the document fails as damaged, saying what happened, and the files after it are read by a new
// worker. Before, the worker died: `worker_lost`, with a screenful of minified pdf.js as reason.
// The overflow orphans a promise `await` was about to take, and Node reports its rejection only
// after the round of callbacks it fell in, which can end after the document's last one: the
// worker waits a turn before it sends an outcome, or the next file would be blamed.
// Needs dist/ (`npm run build`), as cli.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deepNestingPagesPdf } from "../../fixtures/hostile.mjs";

const CLI = resolve("dist/cli.js");
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-uncaught-"));
  await writeFile(join(tmp, "deep.pdf"), deepNestingPagesPdf());
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("pdf.js failing outside any call", () => {
  it("fails the document as damaged with the reason, and the next file is read", () => {
    const extract = () => spawnSync(process.execPath, [CLI, "extract", join(tmp, "deep.pdf"), resolve("fixtures/two-pages.pdf")], { encoding: "utf8" });
    // Where the stack runs out depends on how much of the parser V8 has optimised by then (its
    // frames are smaller): about one run in fifty on a busy machine, both deep pages overflow
    // inside the calls that read them, and are two unreadable pages of a document read whole
    // (exit 0). That run says nothing of the uncaught path: it is read again, up to three times.
    const insideCalls = (run: ReturnType<typeof extract>) => run.status === 0 && /page 1 could not be read: Maximum call stack size exceeded\n.*page 3 could not be read: Maximum call stack size exceeded/.test(run.stderr);
    let r = extract();
    for (let again = 0; again < 2 && insideCalls(r); again++) r = extract();
    expect(r.status).toBe(3);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toEqual([expect.stringMatching(/deep\.pdf: damaged: pdf\.js failed while reading it and could not go on: Maximum call stack size exceeded$/)]);
    expect(r.stdout).toMatch(/==> .*two-pages\.pdf <==\n\S/);
  });
});
