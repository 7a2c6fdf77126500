/**
 * The hostile files of the shared corpus (see its EXPECTED.md), all in one run of the CLI with
 * a good file: each gets the outcome EXPECTED.md allows, the good one is still ingested, the
 * run finishes, and the main process's memory stays bounded. The limits are set low so the
 * run stays short: bomb-flate.pdf (inflates to ~1.5 GB) is stopped by the worker memory cap,
 * pages-20000.pdf by max_pages.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  "bomb-flate.pdf": { code: "resource_limit" },
  "pages-20000.pdf": { code: "too_large" },
};

interface JsonRecord {
  type: string;
  uri: string;
  code?: string;
  message?: string;
  text?: string;
}

interface RunReport {
  exit_code: number;
  summary: { documents: number; failed: number; failedByCode: Record<string, number> };
  peak_rss_mib: { main: number; worker: number };
}

describe.skipIf(skipShared)("bad and hostile inputs", () => {
  let dir: string;
  let records: JsonRecord[];
  let report: RunReport;
  let exitCode: number | null;

  beforeAll(async () => {
    const bad = sharedCorpus("bad");
    dir = await mkdtemp(join(tmpdir(), "pagestream-bad-"));
    await Promise.all(Object.keys(EXPECTED).map((f) => symlink(join(bad, f), join(dir, "in-" + f))));
    await writeFile(
      join(dir, "pipeline.yaml"),
      `concurrency: 2\nmax_worker_memory_mb: 400\nmax_pages: 2000\ntimeout_seconds: 40\n` +
        `source: { type: folder, path: . }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out.jsonl }]\n`,
    );
    const run = spawnSync(process.execPath, [resolve("dist/cli.js"), "run", join(dir, "pipeline.yaml")], { encoding: "utf8" });
    exitCode = run.status;
    records = (await readFile(join(dir, "out.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    report = JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("finishes the run, counts every file, and exits 3 for the failures", () => {
    expect(exitCode).toBe(3);
    expect(report.summary.documents).toBe(Object.keys(EXPECTED).length);
    expect(report.summary.failed).toBe(Object.values(EXPECTED).filter((e) => "code" in e).length);
  });

  it("keeps the main process's memory bounded: the bomb inflates in a worker, which is stopped at its cap", () => {
    // Unbounded, bomb-flate.pdf takes a process to ~3 GiB; here neither the run nor a worker gets near it.
    expect(report.peak_rss_mib.main).toBeLessThan(400);
    expect(report.peak_rss_mib.worker).toBeLessThan(400 + 200);
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file}: ${"code" in expected ? `error record ${expected.code}, naming the file` : "text extracted"}`, () => {
      const mine = records.filter((r) => r.uri.endsWith("/in-" + file));
      if ("code" in expected) expect(mine.find((r) => r.type === "error")?.message).toMatch(expected.code === "resource_limit" ? /max_worker_memory_mb/ : /./);
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
