#!/usr/bin/env node
// bench/coordinator-memory.mjs: the run's own process holds no document. A run over one small
// PDF and a run over one of ~200 MB (a page of text and a large image, made here), each from an
// empty run folder, with the main process's and the worker's peak RSS from the run summary.
// Documents travel as data, so the main process should stay near the same size for both; the
// worker, which reads and parses the file, grows with it.
//
//   node bench/coordinator-memory.mjs [--mib N]      (default 200)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { scriptArgs } from "./script-args.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = scriptArgs(import.meta.url, "bench/coordinator-memory");
const mib = args.int("--mib", 200);
const tmp = mkdtempSync(join(tmpdir(), "pagestream-coordinator-"));

/**
 * Writes the PDF from a process of its own: Linux carries a process's peak RSS over fork and exec
 * into its children's, so a bench that held 200 MiB itself would be charged to every run it starts.
 */
function makePdf(path, expression) {
  const hostile = pathToFileURL(join(root, "fixtures/hostile.mjs")).href;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `import * as h from ${JSON.stringify(hostile)}; (await import("node:fs")).writeFileSync(${JSON.stringify(path)}, h.${expression});`]);
  if (r.status !== 0) throw new Error(`could not write ${path}: ${r.stderr}`);
}

function runOver(name, expression) {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "in"), { recursive: true });
  makePdf(join(dir, "in", `${name}.pdf`), expression);
  writeFileSync(join(dir, "pipeline.yaml"), "concurrency: 1\nmax_worker_memory_mb: 4096\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n");
  const r = spawnSync(process.execPath, [join(root, "dist/cli.js"), "run", "--progress", "never", "--log-level", "warn"], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the run over ${name} failed (${r.status}): ${r.stderr}`);
  const report = JSON.parse(readFileSync(join(dir, "out/run-summary.json"), "utf8"));
  return { file: statSync(join(dir, "in", `${name}.pdf`)).size, main: report.peak_rss_mib.main, worker: report.peak_rss_mib.worker };
}

try {
  const small = runOver("small", "longDocumentPdf(2)");
  const large = runOver("large", `largePdf(${mib * 1024 * 1024})`);
  console.log(`| one document | file MiB | main process peak RSS MiB | worker peak RSS MiB |`);
  console.log(`|---|---:|---:|---:|`);
  for (const [label, m] of [["small (2 pages)", small], [`large (~${mib} MiB)`, large]]) console.log(`| ${label} | ${(m.file / 1048576).toFixed(1)} | ${m.main} | ${m.worker} |`);
  console.log(`\n- main process, large ÷ small: ${(large.main / small.main).toFixed(2)} (≈ 1.0: the run's own process never holds the document); the worker's grew by ${large.worker - small.worker} MiB.`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
