/**
 * The hostile files of the shared corpus (see its EXPECTED.md), all in one run with a good
 * file: each gets the outcome EXPECTED.md allows, the good one is still ingested, the run
 * finishes. bomb-flate.pdf and pages-20000.pdf need the isolated workers of batch operations.
 */
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPipeline } from "../src/core/build-pipeline.js";
import { parsePipeline } from "../src/core/config.js";
import { runPipeline } from "../src/core/runner.js";
import { extractFile, okPages } from "./helpers/extract.js";
import { sharedCorpus, skipShared } from "./helpers/shared-corpus.js";

/** What each file must give: an error code, or text that must be in its pages. */
const EXPECTED: Record<string, { code: string } | { text: string }> = {
  "good.pdf": { text: "The committee reviewed the figures" },
  "empty.pdf": { code: "empty_file" },
  "notpdf.pdf": { code: "not_pdf" },
  "truncated.pdf": { code: "damaged" },
  "garbage-body.pdf": { code: "damaged" },
  "zero-pages.pdf": { code: "no_pages" },
  "encrypted-userpw.pdf": { code: "encrypted" },
  "encrypted-ownerpw-only.pdf": { text: "The committee reviewed the figures" },
  "deep-nesting.pdf": { code: "damaged" },
  "pagetree-cycle.pdf": { code: "damaged" },
  "javascript-action.pdf": { text: "Hello from a hand-made page." },
  "bad-xref.pdf": { text: "Hello from a hand-made page." },
  "bad-operators.pdf": { text: "Still readable" },
  "missing-font.pdf": { text: "No font here" },
};

interface JsonRecord {
  type: string;
  uri: string;
  code?: string;
  message?: string;
  text?: string;
}

describe.skipIf(skipShared)("bad and hostile inputs", () => {
  let dir: string;
  let records: JsonRecord[];
  let exitSummary: Awaited<ReturnType<typeof runPipeline>>;

  beforeAll(async () => {
    const bad = sharedCorpus("bad");
    dir = await mkdtemp(join(tmpdir(), "pagestream-bad-"));
    await Promise.all(Object.keys(EXPECTED).map((f) => symlink(join(bad, f), join(dir, "in-" + f))));
    const yaml = `source: { type: folder, path: ${dir} }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: ${join(dir, "out.jsonl")} }]\n`;
    const loaded = await parsePipeline(yaml, { file: "pipeline.yaml", baseDir: dir });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    exitSummary = await runPipeline(await buildPipeline(loaded.config, { baseDir: dir, warn: () => {} }));
    records = (await readFile(join(dir, "out.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("finishes the run and counts every file", () => {
    expect(exitSummary.documents).toBe(Object.keys(EXPECTED).length);
    expect(exitSummary.failed).toBe(Object.values(EXPECTED).filter((e) => "code" in e).length);
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file}: ${"code" in expected ? `error record ${expected.code}, naming the file` : "text extracted"}`, () => {
      const mine = records.filter((r) => r.uri.endsWith("/in-" + file));
      if ("code" in expected) {
        const errors = mine.filter((r) => r.type === "error");
        expect(errors.map((r) => r.code)).toEqual([expected.code]);
        expect(errors[0]!.message!.length).toBeGreaterThan(10);
        expect(mine.some((r) => r.type === "page")).toBe(false);
      } else {
        expect(mine.filter((r) => r.type === "page").map((r) => r.text).join("\n")).toContain(expected.text);
      }
    });
  }

  it("opens encrypted-userpw.pdf with the configured password", async () => {
    const pages = okPages(await extractFile(join(sharedCorpus("bad"), "encrypted-userpw.pdf"), { password: "secret" }));
    expect(pages.map((p) => p.text).join("\n").length).toBeGreaterThan(0);
  });

  it("says the password is wrong when it is", async () => {
    const result = await extractFile(join(sharedCorpus("bad"), "encrypted-userpw.pdf"), { password: "guess" });
    expect(result.status === "failed" && [result.error.code, result.error.message]).toEqual(["encrypted", "the configured password is not correct"]);
  });
});
