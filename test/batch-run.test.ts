/**
 * `pagestream run` as a nightly batch, for real: the compiled CLI in a child process over a
 * folder of PDFs, with a JSONL chunk file and a SQLite archive. Incremental runs, kills at
 * random moments, signals, and watch mode.
 */
import Database from "better-sqlite3";
import { spawn, spawnSync } from "node:child_process";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { longDocumentPdf, manyPagesPdf } from "../fixtures/hostile.mjs";

const CLI = resolve("dist/cli.js");
const SAMPLES = ["meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"];

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-batch-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const pipeline = (extra = "", chunk = "max_tokens: 512") =>
  `concurrency: 2\n${extra}source: { type: folder, path: in, stable_seconds: 0 }\n` +
  `stages: [{ type: extract }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, ${chunk} }]\n` +
  `sinks:\n  - { type: jsonl, records: chunks, path: out/chunks.jsonl, prune: true }\n  - { type: sqlite, path: out/archive.sqlite, prune: true }\n`;

/** A folder with `copies` of each sample PDF under its own name, and a pipeline over it. */
async function batch(name: string, copies: number, yaml = pipeline()): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(join(dir, "in"), { recursive: true });
  for (let c = 0; c < copies; c++) for (const f of SAMPLES) await copyFile(join("fixtures/samples", f), join(dir, "in", `${String(c).padStart(3, "0")}-${f}`));
  await writeFile(join(dir, "pipeline.yaml"), yaml);
  return dir;
}

function run(dir: string, args: string[] = []) {
  const r = spawnSync(process.execPath, [CLI, "run", "pipeline.yaml", ...args], { cwd: dir, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function summaryOf(dir: string) {
  return JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8")) as { exit_code: number; signal?: string; summary: Record<string, number | boolean> };
}

async function jsonl(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, "utf8");
  if (text !== "" && !text.endsWith("\n")) throw new Error(`${file} ends in a torn line`);
  return text === "" ? [] : text.trimEnd().split("\n").map((l) => JSON.parse(l));
}

/** What each sink holds, per uri: the document records and chunk ids in the JSONL, the rows in the archive. */
async function holdings(dir: string) {
  const documents = await jsonl(join(dir, "out/chunks.documents.jsonl"));
  const chunks = await jsonl(join(dir, "out/chunks.jsonl"));
  const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
  const archive = db.prepare("SELECT uri, chunk_count FROM documents ORDER BY uri").all() as { uri: string; chunk_count: number }[];
  const archiveChunks = (db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
  const integrity = db.pragma("integrity_check", { simple: true });
  db.close();
  const state = new Database(join(dir, "out/run-state.sqlite"), { readonly: true });
  const stateIntegrity = state.pragma("integrity_check", { simple: true });
  state.close();
  return { documents, chunks, archive, archiveChunks, integrity, stateIntegrity };
}

/** The time a text log line starts with: ISO 8601, UTC. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

const names = (records: Record<string, unknown>[]) => records.map((r) => `${r.type}:${String(r.uri).split("/").pop()}`);

describe("incremental runs", () => {
  it("skips unchanged documents before reading them, re-ingests a changed file and a changed stage config, and prunes a deleted one", async () => {
    const dir = await batch("incremental", 2);
    const first = run(dir);
    expect(first.code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ listed: 6, documents: 6, ok: 6, skipped: 0, failed: 0 });

    // Unchanged: nothing is read, nothing is written.
    const before = await holdings(dir);
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ listed: 6, documents: 0, skipped: 6 });
    expect(await holdings(dir)).toEqual(before);

    // A touched file with the same bytes is read and hashed, and skipped.
    await utimes(join(dir, "in/000-meeting-minutes.pdf"), new Date(), new Date(2024, 0, 1));
    run(dir);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 0, skipped: 6 });

    // A replaced file is ingested again: a tombstone, then its new records.
    await copyFile("fixtures/two-pages.pdf", join(dir, "in/001-service-agreement.pdf"));
    // A deleted one is pruned.
    await rm(join(dir, "in/000-quarterly-report.pdf"));
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ listed: 5, documents: 1, skipped: 4, removed: 1 });
    const after = await holdings(dir);
    expect(names(after.documents).slice(6)).toEqual(["tombstone:001-service-agreement.pdf", "document:001-service-agreement.pdf", "tombstone:000-quarterly-report.pdf"]);
    expect(after.chunks.filter((c) => c.type === "tombstone").map((c) => [String(c.uri).split("/").pop(), c.reason])).toEqual([
      ["001-service-agreement.pdf", "replaced"],
      ["000-quarterly-report.pdf", "removed"],
    ]);
    expect(after.archive.map((d) => d.uri.split("/").pop())).toEqual(["000-meeting-minutes.pdf", "000-service-agreement.pdf", "001-meeting-minutes.pdf", "001-quarterly-report.pdf", "001-service-agreement.pdf"]);

    // A changed stage config processes every document again.
    await writeFile(join(dir, "pipeline.yaml"), pipeline("", "max_tokens: 128"));
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ listed: 5, documents: 5, skipped: 0 });
  });

  it("lists every document that failed in failed.jsonl, this run's and earlier ones skipped as unchanged, and exits 3 while failures remain", async () => {
    const dir = await batch("failures", 1);
    await writeFile(join(dir, "in/broken.pdf"), "%PDF-1.7\ngarbage");
    await writeFile(join(dir, "in/empty.pdf"), "");
    expect(run(dir).code).toBe(3);
    const failed = async () => (await jsonl(join(dir, "out/failed.jsonl"))).map((f) => `${String(f.uri).split("/").pop()}:${f.code}`);
    expect(await failed()).toEqual(["broken.pdf:damaged", "empty.pdf:empty_file"]);
    expect((await summaryOf(dir)).summary).toMatchObject({ failed: 2, failedByCode: { damaged: 1, empty_file: 1 } });
    // Nothing changed, nothing was processed: the failures remain, and the exit code says so.
    const again = run(dir);
    expect(again.code).toBe(3);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 0, failed: 0 });
    // …and says why it exits 3 although nothing failed this time.
    expect(again.stderr).toContain("pagestream: 2 document(s) failed in an earlier run and are unchanged since, so they were not tried again (listed in out/failed.jsonl): fix or remove them, or run with --reprocess to try them again\n");
    expect(await failed()).toEqual(["broken.pdf:damaged", "empty.pdf:empty_file"]);
    // Fixed: the next run ingests it and exits 0.
    await rm(join(dir, "in/broken.pdf"));
    await rm(join(dir, "in/empty.pdf"));
    expect(run(dir).code).toBe(0);
    expect(await failed()).toEqual([]);
  });
});

describe("changed code", () => {
  it("processes again what a stage of your own made once its module file is edited, and everything with run --reprocess", async () => {
    const dir = await batch("stage-edit", 1);
    const plugin = pathToFileURL(resolve("dist/plugin.js")).href;
    const stage = (mark: string) =>
      `import { defineStage, mapPages, z } from ${JSON.stringify(plugin)};\n` +
      `export default defineStage({ type: "mark", summary: "Marks each page.", options: z.strictObject({}), examples: [{}],\n` +
      `  create: () => ({ apply: (records) => records.pipe(mapPages((page) => ({ ...page, text: page.text + ${JSON.stringify(mark)} }))) }) });\n`;
    await writeFile(join(dir, "mark.mjs"), stage(" [v1]"));
    await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }, { type: ./mark.mjs }]\nsinks: [{ type: jsonl, records: pages, path: out/pages.jsonl }]\n");
    expect(run(dir).code).toBe(0);
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 0, skipped: 3 });
    // The stage's code changes, its options do not: its module's hash is part of the pipeline's identity.
    await writeFile(join(dir, "mark.mjs"), stage(" [v2]"));
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 3, skipped: 0 });
    const pages = async () => (await jsonl(join(dir, "out/pages.jsonl"))).filter((r) => r.type === "page");
    const live = (await pages()).slice(-9);
    expect(live.every((p) => String(p.text).endsWith(" [v2]"))).toBe(true);
    // Nothing changed: --reprocess processes every document again all the same, and keeps the run state.
    const before = (await pages()).length;
    expect(run(dir, ["--reprocess"]).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 3, skipped: 0 });
    expect((await pages()).length).toBe(before + 9);
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 0, skipped: 3 });
  });
});

describe("failure classes", () => {
  it("records a worker killed from outside as worker_lost, and the next run does the document", async () => {
    const dir = await batch("lost", 0);
    const source = resolve("test/helpers/recording-folder-source.mjs");
    await writeFile(join(dir, "pipeline.yaml"), `concurrency: 1\nsource: { type: ${source}, path: in, read_log: reads.log }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n`);
    await writeFile(join(dir, "in/long.pdf"), longDocumentPdf(400));
    const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml", "--progress", "never"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    // The worker that read the long document is killed while it extracts it, as an operator or the OOM killer would.
    const reader = async () => Number((await readFile(join(dir, "reads.log"), "utf8").catch(() => "")).split(" ")[0]);
    while (!(await reader())) await new Promise((r) => setTimeout(r, 20));
    process.kill(await reader(), "SIGKILL");
    expect(await exited).toBe(3);
    expect(stderr).toMatch(/long\.pdf: worker_lost: the extraction worker was lost \(stopped by SIGKILL: killed from outside, or it crashed\)/);
    const again = run(dir);
    expect(again.code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 1, ok: 1, failed: 0 });
  });
});

describe("crash safety", () => {
  it("completes the batch after SIGKILLs at random moments: every document once in every sink, no torn line, SQLite intact", async () => {
    // 600 documents: a run of them takes about 6 s on a fast machine (60 took 1.2 s there, under
    // the latest kill), so the first run is cut off mid-batch on a machine three times faster still.
    const dir = await batch("killed", 200);
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const delay = 300 + Math.floor(Math.random() * 1500);
      delays.push(delay);
      const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml"], { cwd: dir, stdio: "ignore" });
      const exited = new Promise((r) => child.once("exit", r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      await exited;
      // The workers notice their parent is gone and leave.
      await new Promise((r) => setTimeout(r, 300));
      // The first run had far more to do than it had time for: it was cut off mid-batch.
      if (i === 0) await expect(readFile(join(dir, "out/run-summary.json"))).rejects.toThrow(/ENOENT/);
    }
    const last = run(dir);
    expect(last.code, `killed after ${delays.join(", ")} ms`).toBe(0);
    const h = await holdings(dir);
    const uris = (await readdir(join(dir, "in"))).map((f) => join(dir, "in", f)).sort();
    expect(h.documents.map((d) => d.uri).sort()).toEqual(uris);
    expect(h.documents.every((d) => d.type === "document")).toBe(true);
    const chunkIds = h.chunks.map((c) => `${String((c.metadata as { source_uri: string }).source_uri)}#${c.chunk_index}`);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    expect(chunkIds.length).toBe(h.documents.reduce((n, d) => n + (d.chunk_count as number), 0));
    expect(h.archive.map((d) => d.uri)).toEqual(uris);
    expect(h.archiveChunks).toBe(chunkIds.length);
    expect([h.integrity, h.stateIntegrity]).toEqual(["ok", "ok"]);
    // And a run after that has nothing left to do.
    run(dir);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 0, skipped: uris.length });
  });
});

/** Starts a run, and resolves with its exit code once `signals` were sent after `afterMs`. */
/** The child processes of `pid` (the run's extraction workers). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Starts a run and sends it `signals` (100 ms apart) once it is at work — its first document
 * delivered, or (`when: "worker"`) its first worker started, for a run whose first document is
 * a long one — so the signals always find a run in progress, however slow the machine is.
 */
async function signalled(dir: string, signals: NodeJS.Signals[], when: "delivered" | "worker" = "delivered") {
  const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml", "--log-format", "text", "--progress", "never", "--progress-every", "1"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) => child.once("exit", (c) => r((exitCode = c))));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.on("data", (d) => (stdout += d));
  const atWork = () => (when === "worker" ? childrenOf(child.pid!).length > 0 : / documents · /.test(stderr));
  while (exitCode === undefined && !atWork()) await new Promise((r) => setTimeout(r, 20));
  for (const s of signals) {
    child.kill(s);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { code: await exited, stderr, stdout };
}

describe("signals", () => {
  it("on SIGINT takes no new documents, commits what is done, writes the summary and exits 130; the next run does the rest", async () => {
    const dir = await batch("sigint", 15);
    const r = await signalled(dir, ["SIGINT"]);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("SIGINT: taking no new documents");
    const stopped = await summaryOf(dir);
    expect([stopped.exit_code, stopped.signal, stopped.summary.interrupted, stopped.summary.complete]).toEqual([130, "SIGINT", true, false]);
    const done = stopped.summary.documents as number;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(45);
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 45 - done, skipped: done });
  });

  it("exits 143 on SIGTERM, and stops at once on a second signal", async () => {
    const dir = await batch("sigterm", 15);
    expect((await signalled(dir, ["SIGTERM"])).code).toBe(143);
    // A 200-page document is in flight when the signals come: the second one does not wait for it.
    await writeFile(join(dir, "in/000-a-long-one.pdf"), longDocumentPdf(200));
    const twice = await signalled(dir, ["SIGTERM", "SIGTERM"], "worker");
    expect(twice.code).toBe(143);
    expect(twice.stderr).toContain("SIGTERM again: stopping now");
    expect(run(dir).code).toBe(0);
    expect((await holdings(dir)).archive).toHaveLength(46);
  });
});

describe("a second signal", () => {
  it("on a second SIGINT abandons the document in flight but keeps the summary: run-summary.json, the summary line, exit 130", async () => {
    const dir = await batch("sigint-twice", 2);
    await writeFile(join(dir, "in/000-a-long-one.pdf"), longDocumentPdf(300));
    const r = await signalled(dir, ["SIGINT", "SIGINT"], "worker");
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("SIGINT again: stopping now");
    const stopped = await summaryOf(dir);
    expect([stopped.exit_code, stopped.signal, stopped.summary.interrupted, stopped.summary.complete]).toEqual([130, "SIGINT", true, false]);
    expect(r.stderr).toMatch(/pagestream: \d+ document\(s\) ingested \(\d+ pages\), 0 failed, 0 skipped unchanged, \d+ chunks, in [\d.]+ s[^\n]*; interrupted\n/);
    // The next run does what the stop left, the long one included.
    expect(run(dir).code).toBe(0);
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 7 - (stopped.summary.documents as number), failed: 0 });
  });
});

describe("progress and logs", () => {
  it("writes a plain progress line every N documents on stderr with --progress never, and nothing on stdout", async () => {
    const dir = await batch("progress", 2);
    const r = run(dir, ["--progress", "never", "--progress-every", "2", "--log-format", "text"]);
    expect(r.stdout).toBe("");
    const lines = r.stderr.split("\n").filter((l) => / documents · /.test(l));
    expect(lines.map((l) => l.replace(/ · .*/, "").replace(TIMESTAMP, ""))).toEqual(["pagestream: 2/6 documents", "pagestream: 4/6 documents", "pagestream: 6/6 documents"]);
    // Every line of a text log says when it was written.
    expect(r.stderr.trimEnd().split("\n").every((l) => TIMESTAMP.test(l))).toBe(true);
    expect(r.stderr).toMatch(/pagestream: 6 document\(s\) ingested \(\d+ pages\), 0 failed, 0 skipped unchanged, \d+ chunks, in [\d.]+ s/);
  });

  it("shows pages going up inside one long document, before the document is done", async () => {
    const dir = await batch("long-progress", 0, pipeline().replace("concurrency: 2", "concurrency: 1"));
    // Long enough that reading it spans at least two of the worker's half-second reports on a
    // fast, quiet machine: 2,400 pages/s here, and a CI machine on Node 24 read 6,000 pages
    // within two reports.
    await writeFile(join(dir, "in/many.pdf"), manyPagesPdf(10000));
    const r = run(dir, ["--progress", "always"]);
    expect(r.code).toBe(0);
    const counts = [...r.stderr.matchAll(/0\/1 documents · ([\d,]+) pages/g)].map((m) => Number(m[1]!.replaceAll(",", "")));
    // Two or more different counts while the only document is still in flight, rising.
    expect(new Set(counts.filter((c) => c > 0)).size).toBeGreaterThanOrEqual(2);
    expect(counts.filter((c) => c > 0)).toEqual([...counts.filter((c) => c > 0)].sort((a, b) => a - b));
  });

  it("reports configuration errors as JSON records too with --log-format json, each with its line and column", async () => {
    const dir = await batch("json-config", 0, "source: { type: folder, path: in, recursive: true }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, colour: red }]\n");
    const r = run(dir, ["--log-format", "json"]);
    expect(r.code).toBe(2);
    const records = r.stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((l) => [l.level, l.line, l.col, l.path, l.msg])).toEqual([
      [50, 1, 35, "source.recursive", 'pipeline.yaml:1:35 source.recursive: unknown option "recursive"'],
      [50, 3, 24, "sinks[0].colour", 'pipeline.yaml:3:24 sinks[0].colour: unknown option "colour"'],
    ]);
  });

  it("logs JSON records (pino) with --log-format json, at the level asked", async () => {
    const dir = await batch("logs", 1);
    await writeFile(join(dir, "in/broken.pdf"), "%PDF-1.7\ngarbage");
    const r = run(dir, ["--log-level", "warn", "--log-format", "json"]);
    const records = r.stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((l) => [l.level, l.uri, l.code])).toEqual([[40, join(dir, "in/broken.pdf"), "damaged"]]);
  });
});

describe("watch mode", () => {
  it("names in the log each file it adds or replaces while watching, with the time", async () => {
    const dir = join(tmp, "watch-log");
    await mkdir(join(dir, "in"), { recursive: true });
    await writeFile(join(dir, "pipeline.yaml"), "concurrency: 1\nsource: { type: folder, path: in, watch: true, stable_seconds: 0.2 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, records: pages, path: out/pages.jsonl }]\n");
    const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml", "--log-format", "text", "--progress", "never"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((r) => child.once("exit", r));
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const until = async (what: RegExp) => {
      for (let i = 0; i < 300 && !what.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
      if (!what.test(stderr)) throw new Error(`timed out waiting for ${what}; stderr: ${stderr}`);
    };
    await until(/watching folder source/);
    const file = join(dir, "in/notice.pdf");
    await copyFile("fixtures/two-pages.pdf", file);
    await until(/notice\.pdf: added/);
    await copyFile("fixtures/samples/meeting-minutes.pdf", file);
    await until(/notice\.pdf: replaced/);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const said = stderr.split("\n").filter((l) => l.includes("notice.pdf"));
    expect(said.map((l) => l.replace(TIMESTAMP, ""))).toEqual([`pagestream: ${file}: added (2 page(s))`, `pagestream: ${file}: replaced (2 page(s))`]);
    expect(said.every((l) => TIMESTAMP.test(l))).toBe(true);
  });

  it("ingests a PDF copied in slowly exactly once, when it has stopped changing, and prunes it when deleted", async () => {
    const dir = join(tmp, "watch");
    await mkdir(join(dir, "in"), { recursive: true });
    await writeFile(
      join(dir, "pipeline.yaml"),
      "concurrency: 1\nsource: { type: folder, path: in, watch: true, stable_seconds: 1 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, records: pages, path: out/pages.jsonl, prune: true }]\n",
    );
    const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml", "--log-format", "text"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((r) => child.once("exit", r));
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const until = async (what: () => Promise<boolean> | boolean, label: string) => {
      for (let i = 0; i < 300; i++) {
        if (await what()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${label}; stderr: ${stderr}`);
    };
    await until(() => stderr.includes("watching folder source"), "the watcher");
    // ~200 pages, written in 8 pieces 300 ms apart: each piece alone is a torn PDF.
    const bytes = longDocumentPdf(200);
    const target = join(dir, "in/slow.pdf");
    const piece = Math.ceil(bytes.length / 8);
    for (let at = 0; at < bytes.length; at += piece) {
      await appendFile(target, bytes.subarray(at, at + piece));
      await new Promise((r) => setTimeout(r, 300));
    }
    const pages = async () => (await jsonl(join(dir, "out/pages.jsonl")).catch(() => [])).filter((r) => r.type === "page");
    await until(async () => (await pages()).length > 0, "the pages");
    await new Promise((r) => setTimeout(r, 1500));
    await rm(target);
    await until(async () => (await jsonl(join(dir, "out/pages.jsonl"))).some((r) => r.type === "tombstone"), "the tombstone");
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    const records = await jsonl(join(dir, "out/pages.jsonl"));
    expect(records.filter((r) => r.type === "error")).toEqual([]);
    const written = records.filter((r) => r.type === "page");
    // Every page once: the document was read whole, once.
    expect(written.map((r) => r.page)).toEqual(Array.from({ length: written[0]!.page_count as number }, (_, i) => i + 1));
    expect(records.at(-1)).toMatchObject({ type: "tombstone", uri: target, reason: "removed" });
    expect((await summaryOf(dir)).summary).toMatchObject({ documents: 1, ok: 1, removed: 1 });
  });
});
