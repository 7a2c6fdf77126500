/**
 * The damaged and hostile files (fixtures/hostile.mjs: the small ones committed under
 * fixtures/bad/ with the manifest of what each must give, the large ones written here into a
 * temporary folder), all in one run of the CLI beside a good file: each gets its expected
 * outcome, the good one is still ingested, the run finishes, and the main process's memory stays
 * bounded. The limits are set low so the run stays short: the flate bomb (inflates to 1.5 GiB)
 * is stopped by the worker memory cap, the 20,000-page file by max_pages.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileEntry, LARGE_HOSTILE_FILES, writeLargeHostileFiles } from "../fixtures/hostile.mjs";
import { extractFile, okPages } from "./helpers/extract.js";

/** The committed files, from their manifest; the large ones from the module that writes them. */
const SMALL: HostileEntry[] = JSON.parse(await readFile("fixtures/bad/manifest.json", "utf8"));
const LARGE: readonly HostileEntry[] = LARGE_HOSTILE_FILES;

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

describe("bad and hostile inputs", () => {
  let dir: string;
  let records: JsonRecord[];
  let report: RunReport;
  let exitCode: number | null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pagestream-bad-"));
    await mkdir(join(dir, "in"));
    await mkdir(join(dir, "large"));
    writeLargeHostileFiles(join(dir, "large"));
    await Promise.all(SMALL.map((e) => symlink(resolve("fixtures/bad", e.file), join(dir, "in", e.file))));
    await Promise.all(LARGE.map((e) => symlink(join(dir, "large", e.file), join(dir, "in", e.file))));
    await writeFile(
      join(dir, "pipeline.yaml"),
      `concurrency: 2\nmax_worker_memory_mb: 400\nmax_file_bytes: 100000000\nmax_pages: 2000\ntimeout_seconds: 40\n` +
        `source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out.jsonl }]\n`,
    );
    const run = spawnSync(process.execPath, [resolve("dist/cli.js"), "run", join(dir, "pipeline.yaml")], { encoding: "utf8" });
    exitCode = run.status;
    records = (await readFile(join(dir, "out.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    report = JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("the manifest names a file for each kind of damage the tests promise, and every file exists", async () => {
    expect([...SMALL, ...LARGE].map((e) => e.file).sort()).toEqual(
      [
        "bad-operators.pdf", "bad-xref.pdf", "bomb-flate.pdf", "deep-nesting.pdf", "empty.pdf", "encrypted-ownerpw-only.pdf", "encrypted-userpw.pdf",
        "font-matrix-injection.pdf", "garbage-body.pdf", "good.pdf", "javascript-action.pdf", "missing-font.pdf", "notpdf.pdf", "pages-20000.pdf",
        "pagetree-cycle.pdf", "truncated.pdf", "zero-pages.pdf",
      ],
    );
    expect((await readdir("fixtures/bad")).filter((f) => f.endsWith(".pdf")).sort()).toEqual(SMALL.map((e) => e.file).sort());
  });

  it("finishes the run, counts every file, and exits 3 for the failures", () => {
    expect(exitCode).toBe(3);
    expect(report.summary.documents).toBe(SMALL.length + LARGE.length);
    expect(report.summary.failed).toBe([...SMALL, ...LARGE].filter((e) => "code" in e.expect).length);
  });

  it("keeps the main process's memory bounded: the bomb inflates in a worker, which is stopped at its cap", () => {
    // Unbounded, the bomb takes a process past 4 GiB; here neither the run nor a worker gets near it.
    expect(report.peak_rss_mib.main).toBeLessThan(400);
    expect(report.peak_rss_mib.worker).toBeLessThan(400 + 200);
  });

  for (const { file, expect: expected } of [...SMALL, ...LARGE]) {
    it(`${file}: ${"code" in expected ? `error record ${expected.code}, naming the file` : "text extracted"}`, () => {
      const mine = records.filter((r) => r.uri.endsWith("/in/" + file));
      if ("code" in expected) {
        const errors = mine.filter((r) => r.type === "error");
        expect(errors.map((r) => r.code)).toEqual([expected.code]);
        expect(errors[0]!.message).toMatch(expected.code === "resource_limit" ? /max_worker_memory_mb/ : /.{10}/);
        expect(mine.some((r) => r.type === "page")).toBe(false);
      } else {
        expect(mine.filter((r) => r.type === "page").map((r) => r.text).join("\n")).toContain(expected.text);
      }
    });
  }

  const passworded = SMALL.find((e) => e.password)!;
  it(`opens ${passworded.file} with the configured password`, async () => {
    const pages = okPages(await extractFile(join("fixtures/bad", passworded.file), { password: passworded.password }));
    expect(pages.map((p) => p.text).join("\n")).toContain("The committee reviewed the figures");
  });

  it("says the password is wrong when it is", async () => {
    const result = await extractFile(join("fixtures/bad", passworded.file), { password: "guess" });
    expect(result.status === "failed" && [result.error.code, result.error.message]).toEqual(["encrypted", "the password given is not correct"]);
  });
});
