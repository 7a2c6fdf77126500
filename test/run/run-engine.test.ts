/**
 * The run engine as a whole, through the CLI: documents travel as data (the run's own process
 * never reads one: its workers do, through their copy of the source), and output does not
 * depend on how the run was scheduled — concurrency 1, concurrency 2 and the listing in reverse
 * order give the same JSONL bytes (per document, in the reversed run) and the same archive rows.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
const SOURCE = resolve("test/helpers/recording-folder-source.mjs");
const INPUTS = [
  "samples/meeting-minutes.pdf",
  "samples/quarterly-report.pdf",
  "samples/service-agreement.pdf",
  "two-columns-title.pdf",
  "scan-mixed-page-2.pdf",
  "hyphenated-lines.pdf",
  "tagged-table.pdf",
  "bad/notpdf.pdf",
  "bad/truncated.pdf",
];

interface Run {
  dir: string;
  status: number | null;
  stderr: string;
}

let tmp: string;
const runs: Record<string, Run> = {};

async function runWith(name: string, concurrency: number, reverse: boolean): Promise<Run> {
  const dir = join(tmp, name);
  await mkdir(dir);
  await writeFile(
    join(dir, "pipeline.yaml"),
    `concurrency: ${concurrency}\n` +
      `source: { type: ${SOURCE}, path: ../in, reverse: ${reverse}, read_log: reads.log }\n` +
      "stages: [{ type: extract }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, max_tokens: 128, overlap_tokens: 16 }]\n" +
      "sinks:\n  - { type: jsonl, path: out/chunks.jsonl }\n  - { type: jsonl, records: pages, path: out/pages.jsonl, include_lines: true }\n  - { type: sqlite, path: out/archive.sqlite }\n",
  );
  const r = spawnSync(process.execPath, [CLI, "run", "--progress", "never", "--log-level", "warn"], { cwd: dir, encoding: "utf8" });
  return { dir, status: r.status, stderr: r.stderr };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-engine-"));
  await mkdir(join(tmp, "in"));
  for (const f of INPUTS) await copyFile(join("fixtures", f), join(tmp, "in", f.replaceAll("/", "-")));
  runs.one = await runWith("one", 1, false);
  runs.two = await runWith("two", 2, false);
  runs.reversed = await runWith("reversed", 2, true);
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const lines = async (run: Run, file: string) => (await readFile(join(run.dir, "out", file), "utf8")).split("\n").filter(Boolean);

/** The archive's rows with what only says when or in which order they were written left out. */
function archiveRows(run: Run) {
  const db = new Database(join(run.dir, "out/archive.sqlite"), { readonly: true });
  try {
    const uriOf = new Map((db.prepare("SELECT id, uri FROM documents").all() as { id: number; uri: string }[]).map((d) => [d.id, d.uri]));
    const documents = (db.prepare("SELECT * FROM documents").all() as Record<string, unknown>[]).map(({ id: _id, ingested_at: _at, ...d }) => d);
    const pages = (db.prepare("SELECT * FROM pages").all() as Record<string, unknown>[]).map(({ document_row, ...p }) => ({ uri: uriOf.get(document_row as number), ...p }));
    const chunks = (db.prepare("SELECT * FROM chunks").all() as Record<string, unknown>[]).map(({ seq: _seq, document_row, ...c }) => ({ uri: uriOf.get(document_row as number), ...c }));
    const key = (r: Record<string, unknown>) => JSON.stringify(r);
    return { documents: documents.map(key).sort(), pages: pages.map(key).sort(), chunks: chunks.map(key).sort() };
  } finally {
    db.close();
  }
}

describe("the run engine", () => {
  it("finishes each run with the bad files as error records (exit 3)", () => {
    for (const run of Object.values(runs)) expect([run.status, run.stderr]).toEqual([3, expect.stringContaining("not_pdf")]);
  });

  it("reads every document in a worker built to read (never in the run's own process), once", async () => {
    for (const run of Object.values(runs)) {
      const reads = await lines(run, "../reads.log");
      expect(reads.map((l) => l.split(" ").slice(1).join(" ")).sort()).toEqual(INPUTS.map((f) => `read ${f.replaceAll("/", "-")}`).sort());
      const runPid = JSON.parse(await readFile(join(run.dir, "out/run-summary.json"), "utf8")).pid as number;
      expect(runPid).toBeGreaterThan(0);
      expect(reads.filter((l) => Number(l.split(" ")[0]) === runPid)).toEqual([]);
    }
  });

  it("writes the same JSONL bytes with one worker as with two", async () => {
    for (const file of ["chunks.jsonl", "chunks.documents.jsonl", "pages.jsonl"]) {
      expect(await readFile(join(runs.two!.dir, "out", file), "utf8"), file).toBe(await readFile(join(runs.one!.dir, "out", file), "utf8"));
    }
  });

  it("writes the same records for every document when the source lists them in reverse order", async () => {
    for (const file of ["chunks.jsonl", "chunks.documents.jsonl", "pages.jsonl"]) {
      const reversed = await lines(runs.reversed!, file);
      expect(reversed, file).not.toEqual(await lines(runs.one!, file)); // the order did change…
      expect([...reversed].sort(), file).toEqual([...(await lines(runs.one!, file))].sort()); // …and nothing else
    }
  });

  it("holds the same archive rows whatever the concurrency or the order", () => {
    const one = archiveRows(runs.one!);
    expect(one.chunks.length).toBeGreaterThan(20);
    expect(archiveRows(runs.two!)).toEqual(one);
    expect(archiveRows(runs.reversed!)).toEqual(one);
  });
});
