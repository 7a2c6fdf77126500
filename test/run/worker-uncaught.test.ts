// A document's failure that reaches no call pagestream awaits. pdf.js, reading the page tree as it
// opens a document, started fetching every page the tree's top lists and kept the promises with no
// one listening: a page whose dictionary cannot be parsed (values nested 100,000 deep) left a
// rejection Node reported as unhandled, after the document's last callback. The worker died
// (`worker_lost`, with a screenful of minified pdf.js as reason), or the next file was lost in its
// place. pdf.js patch 18 marks those promises handled: the page is one that cannot be read. What
// else is left behind (a stage's own promise) fails its own document as damaged, saying what
// happened, and the file after it is read by a new worker.
// Needs dist/ (`npm run build`), as cli.test.ts.
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deepNestingPagesPdf } from "../../fixtures/hostile.mjs";

const CLI = resolve("dist/cli.js");
const ORPHAN_STAGE = resolve("test/helpers/orphan-stage.mjs");
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-uncaught-"));
  await writeFile(join(tmp, "deep.pdf"), deepNestingPagesPdf());
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("a failure outside any call pagestream awaits", () => {
  it("is no failure of a document whose first and last pages pdf.js cannot parse: its other page is read, and the next file", () => {
    const r = spawnSync(process.execPath, [CLI, "extract", join(tmp, "deep.pdf"), resolve("fixtures/two-pages.pdf")], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/deep\.pdf: page 1 could not be read: Objects nested more than 512 deep\.$/),
      expect.stringMatching(/deep\.pdf: page 3 could not be read: Objects nested more than 512 deep\.$/),
    ]);
    expect(r.stdout).toMatch(/==> .*deep\.pdf <==\nHello from a hand-made page\.\n/);
    expect(r.stdout).toMatch(/==> .*two-pages\.pdf <==\nPage one holds/);
  });

  it("fails the document that left a rejection no one listens to, as damaged with the reason, and reads the next file", async () => {
    const dir = join(tmp, "run");
    await mkdir(join(dir, "in"), { recursive: true });
    await copyFile(resolve("fixtures/two-pages.pdf"), join(dir, "in", "a-orphan.pdf"));
    await copyFile(resolve("fixtures/two-pages.pdf"), join(dir, "in", "b-next.pdf"));
    await writeFile(
      join(dir, "pipeline.yaml"),
      `concurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }, { type: ${ORPHAN_STAGE}, orphan: orphan }]\nsinks: [{ type: jsonl, path: out/records.jsonl }]\n`,
    );
    const r = spawnSync(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(3);
    const records = (await readFile(join(dir, "out", "records.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    expect(records.filter((record) => record.type === "error")).toEqual([
      expect.objectContaining({ path: "a-orphan.pdf", code: "damaged", message: "reading it failed outside any call pagestream awaits (pdf.js or a stage), and could not go on: left behind by the orphan stage" }),
    ]);
    expect(records.filter((record) => record.type === "page").map((page) => `${page.path} ${page.page}`)).toEqual(["b-next.pdf 1", "b-next.pdf 2"]);
  });
});
