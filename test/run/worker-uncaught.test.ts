// A PDF on which pdf.js fails outside any call pagestream awaits: its first page's resources nest
// arrays 100,000 deep, and pdf.js, reading the page tree as it opens the document, leaves the
// page's FormatError ("nested more than 512 deep", pdf.js patch 17) in a promise no one listens
// to. Node reports that rejection only after the round of callbacks it fell in, which ends after
// the document's last one: the worker waits a turn before it sends an outcome, so the document
// fails as damaged, saying what happened, and the file after it is read by a new worker. Before,
// the worker died (`worker_lost`, with a screenful of minified pdf.js as reason), and then the
// next file was lost in its place.
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
    const r = spawnSync(process.execPath, [CLI, "extract", join(tmp, "deep.pdf"), resolve("fixtures/two-pages.pdf")], { encoding: "utf8" });
    expect(r.status).toBe(3);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toEqual([expect.stringMatching(/deep\.pdf: damaged: pdf\.js failed while reading it and could not go on: Objects nested more than 512 deep\.$/)]);
    expect(r.stdout).toMatch(/==> .*two-pages\.pdf <==\n\S/);
  });
});
