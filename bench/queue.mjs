#!/usr/bin/env node
// `node bench/queue.mjs` (part of `npm run bench`): what the queue costs, side by side in one run
// against a local run, with a real redis-server started here on a free loopback port.
//
//   1. throughput: a local run with 2 workers vs a coordinator + 1 `pagestream worker
//      --concurrency 2` over the perf corpus (corpus/perf listed 3 times: 2,412 pages), both
//      started cold (processes, pdf.js imports) and timed to the run's end; ratio = queue / local;
//   2. per-job overhead: the same two over 100 and over 300 copies of a one-page PDF
//      (fixtures/two-pages.pdf): ((queue 300 - queue 100) - (local 300 - local 100)) / 200 jobs,
//      so what each run pays once (processes starting, Redis connections) cancels out; and per
//      document, the commands Redis ran (INFO stats, Lua scripts' own included) and its CPU time
//      (INFO cpu);
//   3. Redis memory per 1,000 queued jobs: INFO memory's used_memory with 1,000 jobs waiting
//      (a coordinator with no worker) minus before;
//   4. Redis bytes per page of finished results: 12 perf jobs completed and not yet collected
//      (their coordinator killed after adding them), used_memory over waiting-only, per page; and
//      the stored outcome alone (gzipped JSON in base64), per page.
// Rows 1 and 2 run round-robin, the median of --reps repetitions (default 3). Nothing is
// asserted; it prints a markdown table and writes bench/results/queue.json.
//
//   node bench/queue.mjs [--reps N]
//   PAGESTREAM_BENCH_CORPUS=DIR   the perf corpus folder (or one holding perf/); default ../shared/corpus/perf
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findPerfCorpus } from "./perf-corpus.mjs";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(import.meta.dirname, "..");
const cli = join(root, "dist/cli.js");
const { int } = scriptArgs(import.meta.url, "bench/queue");
const reps = int("--reps", Number(process.env.PAGESTREAM_BENCH_REPS ?? 3));
const COPIES = 3;
const FEW_JOBS = 100;
const MANY_JOBS = 300;
const QUEUED_JOBS = 1000;

const corpus = findPerfCorpus(root);
if (!corpus.dir) {
  console.log(`bench/queue: perf corpus not found, nothing measured (looked in ${corpus.tried.join(", ")}; set PAGESTREAM_BENCH_CORPUS)`);
  process.exit(0);
}
if (!existsSync(cli)) fail("dist/cli.js is missing: run `npm run build` first");
if (spawnSync("redis-server", ["--version"]).status !== 0) fail("redis-server is not installed (Debian: apt-get install redis-server)");

const tmp = mkdtempSync(join(tmpdir(), "pagestream-bench-queue-"));
const perfFiles = readdirSync(corpus.dir).filter((f) => /\.pdf$/i.test(f)).sort().map((f) => join(corpus.dir, f));
const perf = linkFolder("perf", perfFiles, COPIES);
const few = linkFolder("few", [join(root, "fixtures/two-pages.pdf")], FEW_JOBS);
const many = linkFolder("many", [join(root, "fixtures/two-pages.pdf")], MANY_JOBS);
const queued = linkFolder("queued", [join(root, "fixtures/two-pages.pdf")], QUEUED_JOBS);
const redis = await startRedis();
const url = `redis://127.0.0.1:${redis.port}`;
const load = [];
let runs = 0;

try {
  const rows = [
    { id: "local-perf", label: "local run, 2 workers, perf corpus", run: () => localRun(perf) },
    { id: "queue-perf", label: "coordinator + 1 worker (concurrency 2), perf corpus", run: () => queueRun(perf) },
    { id: "local-few", label: `local run, 2 workers, ${FEW_JOBS} one-page PDFs`, run: () => localRun(few) },
    { id: "queue-few", label: `coordinator + 1 worker (concurrency 2), ${FEW_JOBS} one-page PDFs`, run: () => queueRun(few) },
    { id: "local-many", label: `local run, 2 workers, ${MANY_JOBS} one-page PDFs`, run: () => localRun(many) },
    { id: "queue-many", label: `coordinator + 1 worker (concurrency 2), ${MANY_JOBS} one-page PDFs`, run: () => queueRun(many) },
  ];
  const results = Object.fromEntries(rows.map((r) => [r.id, []]));
  for (let rep = 1; rep <= reps; rep++) {
    for (const row of rows) {
      load.push(loadavg()[0]);
      const r = await row.run();
      results[row.id].push(r);
      console.error(`bench/queue: ${row.id} rep ${rep}/${reps}: ${r.seconds.toFixed(2)} s, ${r.pages} pages`);
    }
  }
  const median = (id) => medianOf(results[id].map((r) => r.seconds));
  const perThousandPages = (id, key) => ((medianOf(results[id].map((r) => r[key] ?? NaN)) / results[id][0].pages) * 1000).toFixed(2);
  const pages = results["local-perf"][0].pages;
  const memory = await queuedMemory();
  const resultsMemory = await resultBytes(pages);
  const ratio = median("local-perf") / median("queue-perf");
  const overheadMs = ((median("queue-many") - median("queue-few") - (median("local-many") - median("local-few"))) / (MANY_JOBS - FEW_JOBS)) * 1000;
  const table = [
    "| measurement | value |",
    "|---|---|",
    ...rows.map((r) => `| ${r.label} | ${median(r.id).toFixed(2)} s${r.id.endsWith("perf") ? ` (${(pages / median(r.id)).toFixed(1)} pages/s)` : ""} |`),
    `| queue throughput ÷ local throughput (perf corpus) | **${ratio.toFixed(3)}** (cost ${((1 - ratio) * 100).toFixed(1)} %) |`,
    `| per-job overhead of the queue | **${overheadMs.toFixed(1)} ms** |`,
    `| Redis commands per document, those its Lua scripts run included (${MANY_JOBS} one-page jobs; perf corpus, with the lock renewals of long documents) | **${medianOf(results["queue-many"].map((r) => r.commandsPerDocument)).toFixed(0)}**; ${medianOf(results["queue-perf"].map((r) => r.commandsPerDocument)).toFixed(0)} |`,
    `| Redis CPU per document (${MANY_JOBS} one-page jobs; perf corpus) | **${medianOf(results["queue-many"].map((r) => r.redisCpuMsPerDocument)).toFixed(2)} ms**; ${medianOf(results["queue-perf"].map((r) => r.redisCpuMsPerDocument)).toFixed(2)} ms |`,
    `| CPU of the run's own process per 1,000 pages (perf corpus): local run; coordinator; \`pagestream worker\` (its extraction processes not counted) | ${perThousandPages("local-perf", "mainCpuSeconds")} s; ${perThousandPages("queue-perf", "mainCpuSeconds")} s; ${perThousandPages("queue-perf", "workerCpuSeconds")} s |`,
    `| Redis memory per 1,000 queued jobs | **${(memory.perThousand / 1024).toFixed(0)} KiB** (${memory.perJob.toFixed(0)} bytes a job) |`,
    `| Redis memory per page of finished, uncollected results | **${resultsMemory.perPage.toFixed(0)} bytes** (the stored outcome alone: ${resultsMemory.payloadPerPage.toFixed(0)} bytes a page, kept twice: in the job and in the event stream) |`,
  ];
  const loadText = `load average ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)} over the timed rows (2 cores), ${reps} repetition(s), medians`;
  console.log(`\n## Queue vs local (${pages} pages in ${perfFiles.length * COPIES} documents; ${loadText})\n\n${table.join("\n")}\n`);
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/queue.json"), JSON.stringify({ at: new Date().toISOString(), load, reps, pages, results, ratio, overheadMs, memory, resultsMemory }, null, 2) + "\n");
} finally {
  await redis.stop();
  rmSync(tmp, { recursive: true, force: true });
}

/** A folder of links to `files`, each `copies` times under its own name. */
function linkFolder(name, files, copies) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  for (let c = 1; c <= copies; c++) for (const f of files) symlinkSync(f, join(dir, `copy${c}-${f.split("/").pop()}`));
  return dir;
}

/** A fresh pipeline (its own run folder and queue name) over `folder`. */
function pipeline(folder, extra = "") {
  const dir = join(tmp, `run-${++runs}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "pipeline.yaml"),
    `concurrency: 2\n${extra}source: { type: folder, path: ${JSON.stringify(folder)} }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n`,
  );
  return { dir, queue: `bench${runs}` };
}

async function localRun(folder) {
  const p = pipeline(folder);
  const main = join(p.dir, "main.cpu.json");
  const result = await timed(() => node(["run", "--progress", "never", "--log-level", "warn"], p.dir, main).exited, p.dir);
  return { ...result, mainCpuSeconds: cpuOf(main) };
}

function cpuOf(probe) {
  return existsSync(probe) ? JSON.parse(readFileSync(probe, "utf8")).cpuSeconds : null;
}

/** The coordinator and the worker start together, cold; the run ends when the coordinator does. */
async function queueRun(folder) {
  const p = pipeline(folder);
  writeFileSync(join(p.dir, "pipeline.yaml"), `queue: { name: ${p.queue} }\n` + readFileSync(join(p.dir, "pipeline.yaml"), "utf8"));
  const commandsBefore = commandsProcessed();
  const redisCpuBefore = redisCpuSeconds();
  const workerProbe = join(p.dir, "worker.cpu.json");
  const coordinatorProbe = join(p.dir, "coordinator.cpu.json");
  const worker = node(["worker", "--queue", url, "--concurrency", "2", "--log-level", "warn"], p.dir, workerProbe);
  const result = await timed(() => node(["run", "--queue", url, "--progress", "never", "--log-level", "warn"], p.dir, coordinatorProbe).exited, p.dir);
  // Every command Redis ran for the run: adds, takes, lock renewals, events, heartbeats, pings, removals.
  const commands = commandsProcessed() - commandsBefore;
  const redisCpu = redisCpuSeconds() - redisCpuBefore;
  worker.child.kill("SIGTERM");
  await worker.exited;
  return { ...result, commands, commandsPerDocument: commands / result.documents, redisCpuMsPerDocument: (redisCpu * 1000) / result.documents, mainCpuSeconds: cpuOf(coordinatorProbe), workerCpuSeconds: cpuOf(workerProbe) };
}

async function timed(start, dir) {
  const t = process.hrtime.bigint();
  const r = await start();
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.code !== 0) fail(`a run failed (exit ${r.code}): ${r.stderr}`);
  const summary = JSON.parse(readFileSync(join(dir, "out/run-summary.json"), "utf8"));
  return { seconds, pages: summary.summary.pages, documents: summary.summary.documents };
}

/** used_memory with QUEUED_JOBS jobs waiting (a coordinator without workers) minus before, per job. */
async function queuedMemory() {
  redisCli("FLUSHALL");
  const before = usedMemory();
  const p = pipeline(queued, `queue: { name: ${`bench${runs + 1}`}, max_jobs_in_flight: ${QUEUED_JOBS} }\n`);
  const coordinator = node(["run", "--queue", url, "--progress", "never", "--log-level", "warn"], p.dir);
  await until(() => Number(redisCli("LLEN", `bull:${p.queue}:wait`)) >= QUEUED_JOBS);
  const after = usedMemory();
  coordinator.child.kill("SIGKILL");
  await coordinator.exited;
  redisCli("FLUSHALL");
  const perJob = (after - before) / QUEUED_JOBS;
  return { before, after, perJob, perThousand: perJob * 1000 };
}

/** Finished results kept in Redis: the perf corpus's jobs completed while no coordinator collects them. */
async function resultBytes(pages) {
  redisCli("FLUSHALL");
  const p = pipeline(perf, `queue: { name: ${`bench${runs + 1}`} }\n`);
  const coordinator = node(["run", "--queue", url, "--progress", "never", "--log-level", "warn"], p.dir);
  const jobs = perfFiles.length * COPIES;
  await until(() => Number(redisCli("LLEN", `bull:${p.queue}:wait`)) >= jobs);
  coordinator.child.kill("SIGKILL");
  await coordinator.exited;
  const waiting = usedMemory();
  const worker = node(["worker", "--queue", url, "--concurrency", "2", "--log-level", "warn"], p.dir);
  await until(() => Number(redisCli("ZCARD", `bull:${p.queue}:completed`)) >= jobs, 600);
  worker.child.kill("SIGTERM");
  await worker.exited;
  const done = usedMemory();
  const ids = redisCli("ZRANGE", `bull:${p.queue}:completed`, "0", "-1").split("\n").filter(Boolean);
  const payload = ids.reduce((n, id) => n + Number(redisCli("HSTRLEN", `bull:${p.queue}:${id}`, "returnvalue")), 0);
  redisCli("FLUSHALL");
  return { waiting, done, pages, perPage: (done - waiting) / pages, payloadPerPage: payload / pages };
}

/** Redis's own CPU time (user + system), from INFO cpu. */
function redisCpuSeconds() {
  const info = redisCli("INFO", "cpu");
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]);
}

function commandsProcessed() {
  return Number(/total_commands_processed:(\d+)/.exec(redisCli("INFO", "stats"))[1]);
}

function usedMemory() {
  const info = redisCli("INFO", "memory");
  return Number(/used_memory:(\d+)/.exec(info)[1]);
}

function redisCli(...args) {
  const r = spawnSync("redis-cli", ["-p", String(redis.port), ...args], { encoding: "utf8" });
  if (r.status !== 0) fail(`redis-cli ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

async function until(condition, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) fail("gave up waiting for the queue");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `pagestream …`; with `probe`, the process writes its own CPU time there at exit (bench/probe-preload.mjs). */
function node(args, cwd, probe) {
  const preload = probe ? ["--import", pathToFileURL(join(root, "bench/probe-preload.mjs")).href] : [];
  const env = probe ? { ...process.env, PAGESTREAM_BENCH_PROBE_FILE: probe } : process.env;
  const child = spawn(process.execPath, [...preload, cli, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t) => (stderr += t));
  return { child, exited: new Promise((resolve) => child.once("close", (code) => resolve({ code, stderr }))) };
}

async function startRedis() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  const dir = join(tmp, "redis");
  mkdirSync(dir);
  const child = spawn("redis-server", ["--bind", "127.0.0.1", "--port", String(port), "--dir", dir, "--save", "", "--appendonly", "no", "--logfile", ""], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (t) => (out += t).includes("Ready to accept connections") && resolve());
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  return {
    port,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))),
  };
}

function medianOf(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function fail(message) {
  console.error(`bench/queue: ${message}`);
  process.exit(1);
}
