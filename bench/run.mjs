#!/usr/bin/env node
// `npm run bench`: throughput and peak memory of pagestream's extraction against raw pdf.js,
// measured in the same run, on the shared throughput corpus (corpus/perf, 804 pages).
// Every measurement is its own child process (so peak RSS is per measurement); times are the
// median of the repetitions, which run round-robin so that drifting machine load hits every row
// alike. Prints a markdown table and writes bench/results/latest.json. Nothing is asserted:
// the ratios are for people to read (see bench/README.md).
//
//   npm run bench [-- --reps N] [-- --build] [-- --profile]
//   --profile                     also run the concurrency-1 pipeline once under --cpu-prof and
//                                 attribute its CPU samples (pdf.js, pagestream, GC, …)
//   PAGESTREAM_BENCH_CORPUS=DIR   the perf corpus folder (or a folder holding perf/); default ../shared/corpus/perf
//   PAGESTREAM_BENCH_RAW=FILE     the reference raw-pdfjs.mjs; default ../shared/bench/raw-pdfjs.mjs
//   PAGESTREAM_BENCH_REPS=N       repetitions per measurement (default 3)
//   PAGESTREAM_BENCH_KEEP=1       keep the temporary folder (pipelines, JSONL output) for inspection
//   PAGESTREAM_BENCH_RSS=child    take peak RSS from the child itself even when GNU /usr/bin/time exists
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseYaml } from "yaml";
import { findPerfCorpus } from "./perf-corpus.mjs";

const root = resolve(import.meta.dirname, "..");
const benchDir = join(root, "bench");
const node = process.execPath;

// ---------------------------------------------------------------------------------- options
const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(readFileSync(new URL(import.meta.url), "utf8").split("\n").slice(1, 16).map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(0);
}
const repsArg = argv.includes("--reps") ? argv[argv.indexOf("--reps") + 1] : process.env.PAGESTREAM_BENCH_REPS;
const reps = repsArg === undefined ? 3 : Number(repsArg);
if (!Number.isInteger(reps) || reps < 1) fail(`--reps / PAGESTREAM_BENCH_REPS must be a positive integer, got ${JSON.stringify(repsArg)}`);
const SCALE = 4;
const SCALE_CONCURRENCY = 2;
// The corpus every row reads: the perf files listed this many times (3 × 804 pages = 2,412, over
// the 2,000 pages the batch issue asks for), under different names.
const BASE_COPIES = Number(process.env.PAGESTREAM_BENCH_COPIES ?? 3);

// ---------------------------------------------------------------------------------- inputs
const corpus = findPerfCorpus(root);
if (!corpus.dir) {
  console.log(
    `bench: perf corpus not found, nothing measured.\n` +
      `  looked in: ${corpus.tried.join(", ")}\n` +
      `  set PAGESTREAM_BENCH_CORPUS to the folder holding doc1.pdf … doc4.pdf (shared/corpus/perf).`,
  );
  process.exit(0);
}
const files = readdirSync(corpus.dir)
  .filter((f) => /\.pdf$/i.test(f))
  .sort()
  .map((f) => join(corpus.dir, f));
/** The files as the base corpus lists them: every file BASE_COPIES times (what raw pdf.js and pdftotext read). */
const baseFiles = Array.from({ length: BASE_COPIES }, () => files).flat();

const rawScript = findRawScript(corpus.dir);
if (!rawScript.file) {
  console.error(`bench: reference script raw-pdfjs.mjs not found (looked in: ${rawScript.tried.join(", ")}); set PAGESTREAM_BENCH_RAW. Ratios will be n/a.`);
}

if (argv.includes("--build")) {
  console.error("bench: building (npm run build: tsc, then the bundles)…");
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) fail("the build failed");
}
if (!existsSync(join(root, "dist/cli.js"))) fail("dist/cli.js is missing: run `npm run build` (or `npm run bench -- --build`) first");
const stale = staleDist();
if (stale.length) {
  console.error(`bench: warning: dist/ is older than ${stale.length} source file(s) (e.g. ${stale.slice(0, 3).join(", ")}); measuring the build as it is. Run \`npm run build\` (or \`npm run bench -- --build\`) for a fresh one.`);
}

const distBefore = distFingerprint();
const gnuTime = process.env.PAGESTREAM_BENCH_RSS !== "child" && hasGnuTime();
const rssMethod = gnuTime ? "/usr/bin/time -v (Maximum resident set size)" : "process.resourceUsage().maxRSS in the child (node rows only; pdftotext n/a)";
const pdftotext = which("pdftotext");

// ---------------------------------------------------------------------------------- setup
const tmp = mkdtempSync(join(tmpdir(), "pagestream-bench-"));
let cleaned = false;
const cleanup = () => {
  if (cleaned) return;
  cleaned = true;
  if (process.env.PAGESTREAM_BENCH_KEEP) console.error(`bench: kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

/** A folder of links to the corpus files, `copies` times over under different names. */
function linkFolder(name, copies) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  for (let c = 1; c <= copies; c++) {
    for (const f of files) symlinkSync(f, join(dir, copies === 1 ? basename(f) : `copy${c}-${basename(f)}`));
  }
  return dir;
}

/**
 * A pipeline over `sourceDir`: the extract stage into a JSONL sink, or with `defaults` the stages
 * of the repository's own pipeline.yaml, read from it (flag-scans, strip-furniture, dehyphenate,
 * chunk) into its two kinds of sink, JSONL and the SQLite archive, in this run's folder: what a
 * nightly run pays.
 */
function pipelineFile(name, sourceDir, concurrency, { defaults = false } = {}) {
  const runFolder = join(tmp, `out-${name}`);
  const out = join(runFolder, defaults ? "chunks.jsonl" : "pages.jsonl");
  const stages = defaults ? parseYaml(readFileSync(join(root, "pipeline.yaml"), "utf8")).stages : [{ type: "extract" }];
  const sinks = [{ type: "jsonl", path: out }, ...(defaults ? [{ type: "sqlite", path: join(runFolder, "archive.sqlite") }] : [])];
  const pipeline = { concurrency, run_folder: runFolder, source: { type: "folder", path: sourceDir }, stages, sinks };
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, `# generated by bench/run.mjs\n${JSON.stringify(pipeline, null, 2)}\n`);
  return { file, out, runFolder, defaults };
}

let build;
try {
  build = await snapshotDist();
} catch (err) {
  cleanup();
  fail(err.message);
}
const cli = join(build.dist, "cli.js");
const in1 = linkFolder("corpus-1x", BASE_COPIES);
const inN = linkFolder(`corpus-${SCALE}x`, BASE_COPIES * SCALE);

/**
 * The measurements. `run()` returns { wall, rssKiB, pages, selfSeconds } for one repetition;
 * wall is the whole child process as seen from here (start-up and imports included, for every
 * row alike); selfSeconds is what the child reports about itself, when it does.
 */
const measurements = [];
if (rawScript.file) {
  measurements.push({
    id: "raw-pdfjs",
    label: "raw pdf.js (getTextContent, reference)",
    copies: 1,
    command: `node ${rel(rawScript.file)} FILE… (the ${baseFiles.length} files of the corpus)`,
    // pdf.js 6 needs Promise.withResolvers, which Node 20 lacks: the raw script gets the same
    // polyfill the pipeline loads (a no-op on Node 22+), so both rows run the same pdf.js.
    run: () => rawReport(baseFiles),
  });
}
if (rawScript.file) {
  // The machine's own ceiling for two workers: raw pdf.js twice, side by side, each on half the files.
  const halves = [baseFiles.filter((_, i) => i % 2 === 0), baseFiles.filter((_, i) => i % 2 === 1)];
  measurements.push({
    id: "raw-pdfjs-x2",
    label: "raw pdf.js, two processes side by side (half the files each)",
    copies: 1,
    command: `two of node ${rel(rawScript.file)} FILE…, at once`,
    run: async () => {
      const t0 = process.hrtime.bigint();
      const both = await Promise.all(halves.map(rawReport));
      return {
        wall: Number(process.hrtime.bigint() - t0) / 1e9,
        cpu: both.some((r) => r.cpu == null) ? null : both[0].cpu + both[1].cpu,
        rssKiB: both.some((r) => r.rssKiB == null) ? null : Math.max(both[0].rssKiB, both[1].rssKiB),
        pages: both[0].pages + both[1].pages,
        chars: both[0].chars + both[1].chars,
        selfSeconds: Math.max(both[0].selfSeconds, both[1].selfSeconds),
      };
    },
  });
}
measurements.push({
  id: "pdfjs-as-loaded",
  label: "pdf.js as pagestream runs it (getTextContent only)",
  copies: 1,
  command: `node bench/process-document.mjs --pdfjs-only FILE… (the ${baseFiles.length} files of the corpus)`,
  run: () => nodeReport([join(benchDir, "process-document.mjs"), "--pdfjs-only", ...baseFiles]),
});
measurements.push({
  id: "process-document",
  label: "pagestream processDocument (extract stage only, no sink)",
  copies: 1,
  command: `node bench/process-document.mjs FILE… (the ${baseFiles.length} files of the corpus)`,
  run: () => nodeReport([join(benchDir, "process-document.mjs"), ...baseFiles]),
});
measurements.push({
  id: "ipc-cost",
  label: "processDocument + structured clone of each result (worker IPC cost)",
  copies: 1,
  command: `node bench/process-document.mjs --clone FILE… (the ${baseFiles.length} files of the corpus)`,
  run: () => nodeReport([join(benchDir, "process-document.mjs"), "--clone", ...baseFiles]),
});
for (const concurrency of [1, 2]) {
  const p = pipelineFile(`c${concurrency}`, in1, concurrency);
  measurements.push({
    id: `pipeline-c${concurrency}`,
    label: `pagestream pipeline (CLI), ${concurrency} worker${concurrency > 1 ? "s" : ""}`,
    copies: 1,
    concurrency,
    command: `node dist/cli.js run ${p.file} (a snapshot of dist/)`,
    run: () => cliRun(p),
  });
}
for (const concurrency of [1, 2]) {
  const p = pipelineFile(`default-c${concurrency}`, in1, concurrency, { defaults: true });
  measurements.push({
    id: `pipeline-default-c${concurrency}`,
    label: `pagestream default pipeline (pipeline.yaml's stages and sinks), ${concurrency} worker${concurrency > 1 ? "s" : ""}`,
    copies: 1,
    concurrency,
    command: `node dist/cli.js run ${p.file} (a snapshot of dist/)`,
    run: () => cliRun(p),
  });
}
{
  const p = pipelineFile(`c${SCALE_CONCURRENCY}-${SCALE}x`, inN, SCALE_CONCURRENCY);
  measurements.push({
    id: `pipeline-c${SCALE_CONCURRENCY}-${SCALE}x`,
    label: `pagestream pipeline (CLI), ${SCALE_CONCURRENCY} workers, ${SCALE}× corpus`,
    copies: SCALE,
    concurrency: SCALE_CONCURRENCY,
    command: `node dist/cli.js run ${p.file} (a snapshot of dist/)`,
    run: () => cliRun(p),
  });
}
{
  const p = pipelineFile(`c${SCALE_CONCURRENCY}-again`, in1, SCALE_CONCURRENCY);
  measurements.push({
    id: `pipeline-c${SCALE_CONCURRENCY}-unchanged`,
    label: `pagestream pipeline (CLI), ${SCALE_CONCURRENCY} workers, second run over the unchanged corpus`,
    copies: 1,
    concurrency: SCALE_CONCURRENCY,
    command: `node dist/cli.js run ${p.file} twice; the second run is measured`,
    run: () => cliRun(p, { again: true }),
  });
}
if (pdftotext) {
  measurements.push({
    id: "pdftotext",
    label: "pdftotext (poppler), one process per file",
    copies: 1,
    command: `pdftotext -enc UTF-8 FILE OUT.txt, for each file`,
    run: pdftotextRun,
  });
}

// ---------------------------------------------------------------------------------- run
const startedAt = new Date();
let profile = null;
const byIdBefore = (id) => measurements.find((m) => m.id === id);
const loadBefore = loadavg();
console.error(
  `bench: ${files.length} files from ${corpus.dir}, ${reps} repetition(s) of ${measurements.length} measurements, round-robin` +
    (loadBefore[0] > cpus().length / 2 ? ` (warning: load average ${loadBefore[0].toFixed(2)} on ${cpus().length} cores: other work will skew the times)` : ""),
);
try {
  for (const m of measurements) m.samples = [];
  for (let r = 1; r <= reps; r++) {
    for (const m of measurements) {
      const s = await m.run();
      m.samples.push(s);
      console.error(`  rep ${r}/${reps}  ${m.id.padEnd(22)} ${s.wall.toFixed(2).padStart(7)} s  ${String(s.pages).padStart(5)} pages  ${s.rssKiB ? (s.rssKiB / 1024).toFixed(0) + " MiB" : "RSS n/a"}`);
    }
  }
  if (argv.includes("--profile")) {
    console.error("  profile  pipeline-c1 under --cpu-prof");
    profile = await profilePipeline(byIdBefore("pipeline-c1"));
  }
} catch (err) {
  cleanup();
  fail(err.message);
}
cleanup();
const loadAfter = loadavg();
const distChanged = distFingerprint().hash !== distBefore.hash;

// ---------------------------------------------------------------------------------- results
for (const m of measurements) {
  const pages = new Set(m.samples.map((s) => s.pages));
  if (pages.size !== 1) console.error(`bench: warning: ${m.id} reported different page counts across repetitions: ${[...pages].join(", ")}`);
  m.pages = m.samples[0].pages;
  m.seconds = median(m.samples.map((s) => s.wall));
  m.pagesPerSecond = m.pages / m.seconds;
  const rss = m.samples.map((s) => s.rssKiB).filter((v) => v != null);
  // Each run's own peak; the table shows their median (as steady as the times), the JSON the max too.
  m.peakRssMiB = rss.length ? median(rss) / 1024 : null;
  m.maxPeakRssMiB = rss.length ? Math.max(...rss) / 1024 : null;
  const cpuS = m.samples.map((s) => s.cpu).filter((v) => v != null);
  m.cpuSeconds = cpuS.length === m.samples.length ? median(cpuS) : null;
  const heap = m.samples.map((s) => s.heapAfterGcKiB).filter((v) => v != null);
  m.heapAfterGcMiB = heap.length ? median(heap) / 1024 : null;
  const self = m.samples.map((s) => s.selfSeconds).filter((v) => v != null);
  m.selfSeconds = self.length ? median(self) : null;
  const of = (key) => {
    const v = m.samples.map((s) => s[key]).filter((x) => x != null);
    return v.length ? median(v) : null;
  };
  m.mainRssMiB = of("mainRssMiB");
  m.workerRssMiB = of("workerRssMiB");
  m.ipcSeconds = of("ipcSeconds");
  m.ipcMiB = of("ipcMiB");
}
const byId = Object.fromEntries(measurements.map((m) => [m.id, m]));
const raw = byId["raw-pdfjs"];
const expectedPages = raw?.pages ?? byId["pipeline-c1"].pages;
for (const m of measurements) {
  m.ratioVsRaw = raw ? m.pagesPerSecond / raw.pagesPerSecond : null;
  if (m.pages !== expectedPages * m.copies) {
    console.error(`bench: warning: ${m.id} extracted ${m.pages} pages, expected ${expectedPages * m.copies}`);
  }
}

const table = [
  "| measurement | pages | seconds | pages/s | ratio vs raw pdf.js | peak RSS MiB |",
  "|---|---:|---:|---:|---:|---:|",
  ...measurements.map(
    (m) =>
      `| ${m.label} | ${m.pages} | ${m.seconds.toFixed(2)} | ${m.pagesPerSecond.toFixed(1)} | ${m.ratioVsRaw == null ? "n/a" : m.ratioVsRaw.toFixed(2) + "×"} | ${m.peakRssMiB == null ? "n/a" : m.peakRssMiB.toFixed(0)} |`,
  ),
];

const notes = [];
notes.push(
  `ratio vs raw pdf.js = the row's pages/s ÷ raw pdf.js pages/s (the same as raw seconds ÷ row seconds for the same pages). ` +
    `1.00× = as fast as raw pdf.js, below 1 = slower. seconds = median wall clock of the whole child process over ${reps} run(s), start-up and imports included; peak RSS MiB = median of the runs' peaks.`,
);
const summary = {};
if (raw) {
  // Targets: one worker within 1.11× raw's time (ratio ≥ 0.90×, the run-engine issue), two within 1.3×.
  for (const [id, ratioTarget] of [["pipeline-c1", 0.9], ["pipeline-c2", 0.77]]) {
    const m = byId[id];
    const timeFactor = raw.pagesPerSecond / m.pagesPerSecond;
    summary[`${id.replaceAll("-", "_")}_time_vs_raw`] = timeFactor;
    notes.push(
      `${id}: takes ${timeFactor.toFixed(2)}× raw pdf.js's time per page (target ratio ≥ ${ratioTarget.toFixed(2)}×, i.e. ≤ ${(1 / ratioTarget).toFixed(2)}× the time): ${m.ratioVsRaw >= ratioTarget ? "within target" : "OVER target"}.`,
    );
  }
  const pd = byId["process-document"];
  const loaded = byId["pdfjs-as-loaded"];
  const c1 = byId["pipeline-c1"];
  summary.pdfjs_as_loaded_time_vs_raw = raw.pagesPerSecond / loaded.pagesPerSecond;
  summary.process_document_time_vs_raw = raw.pagesPerSecond / pd.pagesPerSecond;
  const cliVsPd = pd.pagesPerSecond / c1.pagesPerSecond - 1;
  notes.push(
    `pdf.js as pagestream runs it (the same getTextContent calls as raw): ${summary.pdfjs_as_loaded_time_vs_raw.toFixed(2)}× raw's time per page; ` +
      `the extract stage alone (processDocument) ${summary.process_document_time_vs_raw.toFixed(2)}× raw's, ${(loaded.pagesPerSecond / pd.pagesPerSecond).toFixed(2)}× pdf.js as pagestream runs it (the stage's own work: layout, paragraphs, records); ` +
      `the CLI with 1 worker (worker process and IPC, runner, run state, folder walk, JSONL sink, CLI start-up) needs ${Math.abs(cliVsPd * 100).toFixed(0)} % ${cliVsPd >= 0 ? "more" : "less"} time per page than processDocument.`,
  );
  const perPageCpu = (m) => (m.cpuSeconds == null ? null : m.cpuSeconds / m.pages);
  if (perPageCpu(raw) != null) {
    const rows = measurements.filter((m) => m !== raw && m.id !== "pdftotext" && perPageCpu(m) != null);
    for (const m of rows) summary[`${m.id.replaceAll("-", "_")}_cpu_vs_raw`] = perPageCpu(m) / perPageCpu(raw);
    notes.push(
      `CPU time (user+sys) per page vs raw pdf.js, less sensitive than wall time to other work on the machine: ` +
        rows.map((m) => `${m.id} ${(perPageCpu(m) / perPageCpu(raw)).toFixed(2)}×`).join(", ") +
        ` (raw pdf.js ${(perPageCpu(raw) * 1000).toFixed(1)} ms/page).`,
    );
  }
}
{
  const c1 = byId["pipeline-c1"];
  const c2 = byId["pipeline-c2"];
  summary.workers_2_over_1 = c2.pagesPerSecond / c1.pagesPerSecond;
  const rawTwice = byId["raw-pdfjs-x2"];
  if (rawTwice) summary.raw_2_over_1 = rawTwice.pagesPerSecond / raw.pagesPerSecond;
  notes.push(
    `workers: pages/s with 2 workers ÷ with 1 = ${summary.workers_2_over_1.toFixed(2)} (target ≥ 1.7 on 2 cores)` +
      (rawTwice
        ? `; raw pdf.js in two processes side by side ÷ in one = ${summary.raw_2_over_1.toFixed(2)}, what this machine gives two pdf.js processes (one already uses ~1.1 cores: V8's GC threads; and the pipeline with 1 worker uses the second core for its run process and the worker's GC, which two workers must share).`
        : "."),
  );
  const again = byId[`pipeline-c${SCALE_CONCURRENCY}-unchanged`];
  summary.second_run_time_vs_first = again.seconds / c2.seconds;
  notes.push(`second run over the unchanged corpus: ${again.seconds.toFixed(2)} s, ${(summary.second_run_time_vs_first * 100).toFixed(1)} % of the first run's ${c2.seconds.toFixed(2)} s (target < 5 %; every document skipped before it is read).`);
  const ipc = byId["ipc-cost"];
  const pd = byId["process-document"];
  if (ipc?.ipcSeconds != null) {
    summary.ipc_share_of_extraction = ipc.ipcSeconds / (ipc.selfSeconds - ipc.ipcSeconds);
    notes.push(
      `worker IPC: cloning the results (structured clone, as serialization "advanced" sends them; ${ipc.ipcMiB.toFixed(0)} MiB for ${ipc.pages} pages, lines and runs included) takes ${ipc.ipcSeconds.toFixed(2)} s, ${(summary.ipc_share_of_extraction * 100).toFixed(1)} % of the extraction's own time; ` +
        `the pipeline with 1 worker needs ${((pd.pagesPerSecond / c1.pagesPerSecond - 1) * 100).toFixed(0)} % more time per page than processDocument in-process.`,
    );
  }
  for (const m of [c1, c2]) {
    if (m.mainRssMiB != null) notes.push(`${m.id}: peak RSS of the main process ${m.mainRssMiB.toFixed(0)} MiB, of a worker ${m.workerRssMiB.toFixed(0)} MiB (from the run summary; the table's column is the largest single process).`);
  }
}
{
  const one = byId[`pipeline-c${SCALE_CONCURRENCY}`];
  const many = byId[`pipeline-c${SCALE_CONCURRENCY}-${SCALE}x`];
  if (one.mainRssMiB && many.mainRssMiB) {
    summary.scale_main_rss_ratio = many.mainRssMiB / one.mainRssMiB;
    summary.scale_worker_rss_ratio = many.workerRssMiB / one.workerRssMiB;
    notes.push(`scale check: peak RSS ${SCALE}×/1× corpus, main process ${summary.scale_main_rss_ratio.toFixed(2)} (${one.mainRssMiB.toFixed(0)} → ${many.mainRssMiB.toFixed(0)} MiB), a worker ${summary.scale_worker_rss_ratio.toFixed(2)} (${one.workerRssMiB.toFixed(0)} → ${many.workerRssMiB.toFixed(0)} MiB).`);
  }
  if (one.peakRssMiB && many.peakRssMiB) {
    summary.scale_rss_ratio = many.peakRssMiB / one.peakRssMiB;
    notes.push(`scale check: peak RSS ${SCALE}×/1× corpus at concurrency ${SCALE_CONCURRENCY} = ${summary.scale_rss_ratio.toFixed(2)} (flat ≈ 1.0 means memory does not grow with the corpus; up to ~1.3–1.5 is usually V8 letting its heap grow before collecting, see bench/README.md).`);
  }
  if (one.heapAfterGcMiB && many.heapAfterGcMiB) {
    summary.scale_heap_after_gc_ratio = many.heapAfterGcMiB / one.heapAfterGcMiB;
    notes.push(
      `scale check: V8 heap still reachable at exit after a full GC, ${SCALE}×/1× = ${summary.scale_heap_after_gc_ratio.toFixed(2)} (${one.heapAfterGcMiB.toFixed(1)} → ${many.heapAfterGcMiB.toFixed(1)} MiB; ≈ 1.0 = nothing per-document is kept, so a higher RSS ratio is GC headroom, not a leak).`,
    );
  }
  summary.scale_pages_per_s_ratio = many.pagesPerSecond / one.pagesPerSecond;
  notes.push(`scale check: pages/s ${SCALE}×/1× = ${summary.scale_pages_per_s_ratio.toFixed(2)} (≈ 1.0, or a little above as start-up is amortised).`);
}
if (raw?.selfSeconds != null && byId["pipeline-c1"].selfSeconds != null) {
  notes.push(
    `in-process times (excluding process start-up; raw excludes the pdf.js import, the pipeline's run summary includes it): raw pdf.js ${raw.selfSeconds.toFixed(2)} s, ` +
      measurements
        .filter((m) => m.id.startsWith("pipeline") || m.id === "process-document")
        .map((m) => `${m.id} ${m.selfSeconds?.toFixed(2)} s`)
        .join(", ") +
      ".",
  );
}
if (profile) {
  notes.push(
    `profile of pipeline-c1's extraction worker (share of CPU samples): ` +
      profile.categories.map(([k, v]) => `${k} ${(v * 100).toFixed(1)} %`).join(", ") +
      `; pagestream's heaviest: ${profile.topPagestream.map(([k, v]) => `${k} ${(v * 100).toFixed(1)} %`).join(", ")}. ` +
      `The run's own process (coordinator): ${profile.coordinator.busy_seconds} s busy of ${profile.coordinator.profiled_seconds} s (${profile.coordinator.categories.map(([k, v]) => `${k} ${(v * 100).toFixed(1)} %`).join(", ")}).`,
  );
}
if (!pdftotext) notes.push("pdftotext: not on PATH, row skipped.");
if (!gnuTime) notes.push(`peak RSS from ${rssMethod}.`);
const spread = measurements.filter((m) => m.samples.length > 1 && (Math.max(...m.samples.map((s) => s.wall)) - Math.min(...m.samples.map((s) => s.wall))) / m.seconds > 0.1);
if (spread.length) notes.push(`noisy: repetitions of ${spread.map((m) => m.id).join(", ")} differ by more than 10 % (was the machine busy? load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after).`);
if (distChanged) notes.push(`dist/ was rebuilt while the bench ran; every row measured the snapshot taken at the start (dist/ as of ${build.builtAt}).`);
if (stale.length) notes.push(`dist/ was older than ${stale.length} source file(s): this measured the existing build.`);

console.log(table.join("\n"));
console.log();
for (const n of notes) console.log(`- ${n}`);

const results = {
  generated_at: startedAt.toISOString(),
  node: process.version,
  pdfjs_dist: readPackageVersion("pdfjs-dist"),
  pdftotext: pdftotext ? pdftotextVersion() : null,
  platform: `${process.platform} ${process.arch}`,
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  load_average: { before: loadBefore, after: loadAfter },
  corpus: corpus.dir,
  files: files.map((f) => basename(f)),
  corpus_copies: BASE_COPIES,
  repetitions: reps,
  timing: "median wall clock of the child process (start-up and imports included); repetitions run round-robin",
  ratio_definition: "ratio_vs_raw = pages_per_s / raw pdf.js pages_per_s (1 = as fast as raw, < 1 = slower); time_vs_raw = its inverse",
  rss_method: rssMethod,
  rss_summary: "peak_rss_mib = median over the repetitions of each run's peak RSS; peak_rss_mib_max = the highest",
  git_head: gitHead(),
  dist_built_at: build.builtAt,
  measured_build: "a snapshot of dist/ taken when the bench started (so a rebuild during the run cannot mix builds)",
  dist_changed_during_run: distChanged,
  dist_stale_sources: stale,
  measurements: measurements.map((m) => ({
    id: m.id,
    label: m.label,
    command: m.command,
    corpus_copies: m.copies,
    ...(m.concurrency ? { concurrency: m.concurrency } : {}),
    pages: m.pages,
    seconds: round(m.seconds, 3),
    pages_per_s: round(m.pagesPerSecond, 1),
    ratio_vs_raw: m.ratioVsRaw == null ? null : round(m.ratioVsRaw, 3),
    peak_rss_mib: m.peakRssMiB == null ? null : round(m.peakRssMiB, 1),
    peak_rss_mib_max: m.maxPeakRssMiB == null ? null : round(m.maxPeakRssMiB, 1),
    heap_after_gc_at_exit_mib: m.heapAfterGcMiB == null ? null : round(m.heapAfterGcMiB, 1),
    self_reported_seconds: m.selfSeconds == null ? null : round(m.selfSeconds, 3),
    main_rss_mib: m.mainRssMiB,
    worker_rss_mib: m.workerRssMiB,
    ipc_seconds: m.ipcSeconds,
    ipc_mib: m.ipcMiB,
    cpu_seconds: m.cpuSeconds == null ? null : round(m.cpuSeconds, 3),
    cpu_ms_per_page: m.cpuSeconds == null ? null : round((m.cpuSeconds / m.pages) * 1000, 2),
    samples: m.samples.map((s) => ({ seconds: round(s.wall, 3), cpu_seconds: s.cpu == null ? null : round(s.cpu, 3), rss_kib: s.rssKiB ?? null, heap_after_gc_kib: s.heapAfterGcKiB ?? null, self_reported_seconds: s.selfSeconds ?? null })),
  })),
  profile,
  summary: Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, round(v, 3)])),
  notes,
};
mkdirSync(join(benchDir, "results"), { recursive: true });
writeFileSync(join(benchDir, "results", "latest.json"), JSON.stringify(results, null, 2) + "\n");
console.error(`bench: results written to ${rel(join(benchDir, "results", "latest.json"))}`);

// ---------------------------------------------------------------------------------- helpers

/**
 * Runs one child, measured: wall clock from here, peak RSS from GNU time (or, for node, from the
 * probe preloaded into the child), and for node the heap left reachable at exit (see probe-preload.mjs).
 */
async function measured(cmd, args) {
  const stamp = process.hrtime.bigint();
  const timeFile = join(tmp, `time-${stamp}`);
  const probeFile = join(tmp, `probe-${stamp}`);
  let argv0 = cmd;
  let argvRest = args;
  const env = { ...process.env, PAGESTREAM_BENCH_TMP: tmp, PAGESTREAM_BENCH_DIST: build.dist };
  if (cmd === node) {
    argvRest = ["--expose-gc", "--import", pathToFileURL(join(benchDir, "probe-preload.mjs")).href, ...argvRest];
    env.PAGESTREAM_BENCH_PROBE_FILE = probeFile;
  }
  if (gnuTime) {
    argvRest = ["-v", "-o", timeFile, argv0, ...argvRest];
    argv0 = "/usr/bin/time";
  }
  const t0 = process.hrtime.bigint();
  const { code, signal, stdout, stderr } = await new Promise((resolveRun, rejectRun) => {
    const child = spawn(argv0, argvRest, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", errOut = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (errOut += d));
    child.on("error", rejectRun);
    child.on("close", (c, s) => resolveRun({ code: c, signal: s, stdout: out, stderr: errOut }));
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  let rssKiB = null, heapAfterGcKiB = null, cpu = null;
  if (existsSync(probeFile)) {
    try {
      const probe = JSON.parse(readFileSync(probeFile, "utf8"));
      rssKiB = probe.maxRssKiB ?? null;
      cpu = probe.cpuSeconds ?? null;
      heapAfterGcKiB = probe.heapAfterGcKiB ?? null;
    } catch {
      // unknown
    }
    rmSync(probeFile, { force: true });
  }
  if (gnuTime && existsSync(timeFile)) {
    const text = readFileSync(timeFile, "utf8");
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
    if (m) rssKiB = Number(m[1]);
    const user = /User time \(seconds\): ([\d.]+)/.exec(text);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(text);
    if (user && sys) cpu = Number(user[1]) + Number(sys[1]);
    rmSync(timeFile, { force: true });
  }
  if (code !== 0) {
    throw new Error(`\`${[cmd, ...args].map((a) => rel(a)).join(" ")}\` exited with ${signal ?? code}:\n${(stderr + stdout).trim().split("\n").slice(-15).join("\n")}`);
  }
  return { wall, cpu, rssKiB, heapAfterGcKiB, stdout, stderr };
}

/**
 * Runs a CLI pipeline once under `node --cpu-prof` (not timed: the profiler slows it) and splits
 * its samples' self time by where the code lives, for the extraction worker (which the command
 * passes its profiler switches to) and for the run's own process (the coordinator) apart.
 */
async function profilePipeline(m) {
  const dir = join(tmp, "profile");
  const yaml = join(tmp, "c1.yaml");
  const r = spawnSync(node, ["--cpu-prof", "--cpu-prof-dir", dir, cli, "run", yaml], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`profiling ${m.id} failed: ${r.stderr}`);
  // Node names each file CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  const isCoordinator = (f) => Number(f.split(".")[3]) === r.pid;
  const worker = attributeSamples(files.filter((f) => !isCoordinator(f)).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8"))));
  const coordinator = attributeSamples(files.filter(isCoordinator).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8"))));
  const shares = (a, map, n) => [...map].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, v]) => [k, round(v / a.total, 4)]);
  return {
    pipeline: m.id,
    profiled_seconds: round(worker.total / 1e6, 2),
    categories: shares(worker, worker.byCategory, 10),
    topPagestream: shares(worker, worker.byPagestreamFunction, 5),
    coordinator: { profiled_seconds: round(coordinator.total / 1e6, 2), busy_seconds: round(coordinator.busy / 1e6, 2), categories: shares(coordinator, coordinator.byCategory, 6) },
  };
}

/** The samples of CPU profiles by category and by pagestream function, in microseconds. */
function attributeSamples(profiles) {
  const distUrl = pathToFileURL(build.dist).href;
  const byCategory = new Map();
  const byPagestreamFunction = new Map();
  let total = 0;
  let busy = 0;
  const add = (map, key, v) => map.set(key, (map.get(key) ?? 0) + v);
  // On Node 20 pdf.js runs from dist/ as one script (src/stages/extract/pdfjs-script.ts): it is pdf.js, not pagestream.
  const isPdfJs = (url) => url.includes("/node_modules/pdfjs-dist/") || url.endsWith("/pdfjs-script.cjs");
  for (const prof of profiles) {
    const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    prof.samples.forEach((id, i) => {
      const dt = prof.timeDeltas[i] ?? 0;
      total += dt;
      const self = nodes.get(id).callFrame;
      if (self.functionName !== "(idle)") busy += dt;
      // A sample belongs to pagestream when pagestream code is on its stack: its own functions and
      // whatever they call synchronously (builtins, and pdf.js's global Array.prototype.push
      // polyfill). pdf.js's parsing runs from its message handlers, with no pagestream frame on the stack.
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const { url, functionName, lineNumber } = nodes.get(at).callFrame;
        if (url.startsWith(distUrl) && !isPdfJs(url)) {
          add(byCategory, "pagestream (dist/, with what it calls)", dt);
          add(byPagestreamFunction, `${functionName || "(anonymous)"} dist${url.slice(distUrl.length)}:${lineNumber + 1}`, dt);
          return;
        }
      }
      const { url, functionName } = self;
      let category;
      if (isPdfJs(url)) category = "pdf.js";
      else if (url.includes("/node_modules/")) category = "other dependencies";
      else if (url.startsWith("node:")) category = "node internals";
      else if (functionName === "(garbage collector)") category = "GC";
      else if (functionName === "(idle)" || functionName === "(program)") category = "idle/program";
      else category = "V8 builtins (called from pdf.js or node)";
      add(byCategory, category, dt);
    });
  }
  return { byCategory, byPagestreamFunction, total, busy };
}

/** The raw pdf.js reference script on `files`, with the polyfill pdf.js 6 needs on Node 20 (see the raw row). */
function rawReport(files) {
  return nodeReport(["--import", pathToFileURL(join(build.dist, "stages/extract/promise-with-resolvers.js")).href, rawScript.file, ...files]);
}

/** A node script that prints `pages N chars N seconds S pages_per_s P` (raw-pdfjs.mjs and process-document.mjs). */
async function nodeReport(args) {
  const r = await measured(node, args);
  const m = /pages (\d+) chars (\d+) seconds ([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`unexpected output from ${rel(args.find((a) => a.endsWith(".mjs")) ?? args[0])}: ${r.stdout.trim()}`);
  const ipc = /ipc_seconds ([\d.]+) ipc_mib ([\d.]+)/.exec(r.stdout);
  return {
    wall: r.wall, cpu: r.cpu, rssKiB: r.rssKiB, heapAfterGcKiB: r.heapAfterGcKiB, pages: Number(m[1]), chars: Number(m[2]), selfSeconds: Number(m[3]),
    ...(ipc ? { ipcSeconds: Number(ipc[1]), ipcMiB: Number(ipc[2]) } : {}),
  };
}

/**
 * One CLI run from an empty run folder (or, with `again`, a second run after an unmeasured
 * first one). Pages and the run's own time come from its run-summary.json.
 */
async function cliRun(p, { again = false } = {}) {
  rmSync(p.runFolder, { recursive: true, force: true });
  if (again) await measured(node, [cli, "run", p.file]);
  const r = await measured(node, [cli, "run", p.file]);
  const report = JSON.parse(readFileSync(join(p.runFolder, "run-summary.json"), "utf8"));
  const { summary } = report;
  if (again) {
    if (summary.documents !== 0 || summary.skipped !== baseFiles.length) throw new Error(`the second run processed ${summary.documents} document(s) and skipped ${summary.skipped}, expected 0 and ${baseFiles.length}`);
  } else if (p.defaults) {
    // The chunk stage's records, one line each (a page without text gives none, so only a
    // document count over the summary's would be wrong).
    const documents = new Set(readFileSync(p.out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).document_id));
    if (documents.size === 0 || documents.size > summary.documents) throw new Error(`the CLI reported ${summary.documents} documents but ${p.out} holds chunks of ${documents.size}`);
  } else {
    // The sink really wrote every page (the run summary alone could count pages it never wrote).
    const written = readFileSync(p.out, "utf8")
      .split("\n")
      .filter((l) => l && JSON.parse(l).type === "page").length;
    if (written !== summary.pages) throw new Error(`the CLI reported ${summary.pages} pages but ${p.out} holds ${written} page records`);
  }
  // The second run's "pages" are the corpus's, so its pages/s reads as the corpus over its time.
  const pages = again ? expectedCorpusPages() : summary.pages;
  rmSync(p.runFolder, { recursive: true, force: true });
  return { wall: r.wall, cpu: r.cpu, rssKiB: r.rssKiB, heapAfterGcKiB: r.heapAfterGcKiB, pages, selfSeconds: summary.seconds, mainRssMiB: report.peak_rss_mib.main, workerRssMiB: report.peak_rss_mib.worker, workersStarted: report.workers_started };
}

/** Pages of the base corpus, from the first measurement that counted them. */
function expectedCorpusPages() {
  for (const m of measurements) if (m.samples?.length && m.copies === 1 && m.id !== "pdftotext") return m.samples[0].pages;
  throw new Error("the corpus's pages are not known yet");
}

async function pdftotextRun() {
  let wall = 0, cpu = 0, rssKiB = null, pages = 0;
  for (const f of files) {
    const out = join(tmp, "pdftotext.txt");
    const r = await measured(pdftotext, ["-enc", "UTF-8", f, out]);
    r.wall *= BASE_COPIES;
    if (r.cpu != null) r.cpu *= BASE_COPIES;
    wall += r.wall;
    cpu = cpu == null || r.cpu == null ? null : cpu + r.cpu;
    if (r.rssKiB != null) rssKiB = Math.max(rssKiB ?? 0, r.rssKiB);
    // pdftotext ends every page with a form feed.
    pages += BASE_COPIES * (readFileSync(out, "utf8").match(/\f/g) ?? []).length;
    rmSync(out, { force: true });
  }
  return { wall, cpu, rssKiB, pages, selfSeconds: null };
}

function findRawScript(corpusDir) {
  const candidates = process.env.PAGESTREAM_BENCH_RAW
    ? [resolve(process.env.PAGESTREAM_BENCH_RAW)]
    : [join(root, "..", "shared", "bench", "raw-pdfjs.mjs"), join(corpusDir, "..", "..", "bench", "raw-pdfjs.mjs")];
  return { file: candidates.find((f) => existsSync(f)), tried: candidates };
}

/** Source files newer than their compiled output (the other engineer's edits not built yet). */
function staleDist() {
  // Declared here, not beside the function: staleDist runs at the top of the script, before
  // a module-level constant further down would be initialised.
  const PAGE_BUNDLE = join(root, "dist/serve/page/app.js");
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) {
        const rel = relative(join(root, "src"), p);
        // The web page's modules are bundled into one script (scripts/build-page.mjs), not compiled one for one.
        const js = rel.startsWith(join("serve", "page") + sep) ? PAGE_BUNDLE : join(root, "dist", rel).replace(/\.ts$/, ".js");
        if (!existsSync(js) || statSync(js).mtimeMs < statSync(p).mtimeMs) out.push(relative(root, p));
      }
    }
  };
  if (existsSync(join(root, "src"))) walk(join(root, "src"));
  return out;
}

/**
 * Copies dist/ (with package.json for "type": "module" and a link to node_modules) into the
 * temporary folder, so that every row runs the same build even when someone rebuilds dist/
 * meanwhile. A copy caught in the middle of a build is detected by importing the modules the
 * bench runs, and taken again (a few times) before giving up.
 */
async function snapshotDist() {
  const dir = join(tmp, "build");
  let lastError = "";
  for (let attempt = 1; attempt <= 5; attempt++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const before = distFingerprint();
    cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true, filter: (src) => !src.endsWith(".map") });
    copyFileSync(join(root, "package.json"), join(dir, "package.json"));
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    // Everything a measured run loads (cli.js itself would parse argv on import: syntax check only).
    const modules = ["cli/run-command.js", "run/run-pipeline.js", "run/worker-pool.js", "pipeline/config.js", "sources/folder.js", "stages/extract/stage.js", "sinks/jsonl.js"];
    const check = spawnSync(node, ["--check", join(dir, "dist", "cli.js")], { encoding: "utf8" });
    const smoke = spawnSync(node, ["--input-type=module", "-e", modules.map((m) => `await import(${JSON.stringify(pathToFileURL(join(dir, "dist", m)).href)});`).join("\n")], {
      cwd: root,
      encoding: "utf8",
    });
    const loadError = check.status !== 0 ? check.stderr : smoke.status !== 0 ? smoke.stderr : "";
    if (!loadError && distFingerprint().hash === before.hash) {
      return { dist: join(dir, "dist"), builtAt: before.newest ? new Date(before.newest).toISOString() : null };
    }
    lastError = loadError ? loadError.trim().split("\n").filter((l) => /Error|declared|not found|export/.test(l)).slice(0, 3).join("\n") || loadError.trim().split("\n")[0] : "dist/ changed while it was being copied";
    console.error(`bench: dist/ is not usable right now (attempt ${attempt}/5), retrying in 3 s: ${lastError.split("\n")[0]}`);
    await new Promise((r) => setTimeout(r, 3000));
  }
  throw new Error(`dist/ could not be loaded (a build in progress, or a broken build): ${lastError}`);
}

/** What build is measured: a hash of dist/'s .js files (path, size, mtime) and the newest mtime. */
function distFingerprint() {
  const entries = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".js")) {
        const st = statSync(p);
        entries.push([relative(root, p), st.size, st.mtimeMs]);
      }
    }
  };
  walk(join(root, "dist"));
  entries.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { hash: createHash("sha256").update(JSON.stringify(entries)).digest("hex"), newest: Math.max(0, ...entries.map((e) => e[2])) };
}

function gitHead() {
  const r = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

function hasGnuTime() {
  if (!existsSync("/usr/bin/time")) return false;
  const probe = join(tmpdir(), `pagestream-bench-time-${process.pid}`);
  const r = spawnSync("/usr/bin/time", ["-v", "-o", probe, "true"], { stdio: "ignore" });
  const ok = r.status === 0 && existsSync(probe) && /Maximum resident set size/.test(readFileSync(probe, "utf8"));
  rmSync(probe, { force: true });
  return ok;
}

function which(cmd) {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const p = join(dir, cmd);
    try {
      if (dir && statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

function pdftotextVersion() {
  const r = spawnSync(pdftotext, ["-v"], { encoding: "utf8" });
  return /version ([\w.]+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? "unknown";
}

function readPackageVersion(name) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function round(v, digits) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function rel(p) {
  if (typeof p !== "string" || !p.startsWith("/")) return p;
  const r = relative(root, p);
  return r.startsWith("../..") ? p : r;
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}
