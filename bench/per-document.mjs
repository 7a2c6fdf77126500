#!/usr/bin/env node
// Part of `npm run bench`: pagestream's extract stage against raw pdf.js, document by document,
// over every corpus set (../shared/corpus/*/ *.pdf), to find the documents pagestream is slowest
// on for its size: the worst and the median of (pagestream's seconds ÷ raw pdf.js's seconds).
// A total over a corpus hides a class of pages that costs ten times its text; this row shows it.
//
//   node bench/per-document.mjs [--reps N] [--top K] [--confirm N]
//   PAGESTREAM_BENCH_CORPUS=DIR   a folder of corpus sets (default ../shared/corpus)
//   PAGESTREAM_BENCH_DIST=DIR     the build to measure (default dist/)
//
// Each side is one warm child process that reads every document once untimed, then each in turn
// timed (so pdf.js's import and the compiling of each code path count for neither; a document
// read in a few milliseconds is timed up to 7 times, and the mean taken): raw pdf.js
// is what ../shared/bench/raw-pdfjs.mjs does (getTextContent on every page, nothing else);
// pagestream is the extract stage through the per-document API (`processFile`), as a worker runs it
// (with a worker's V8 switches: its heap's cap, how its generations start, its compiler's inlining), with no sink.
// The two alternate, N repetitions each (default 3), and each document's time is its median.
// The worst of 152 noisy ratios is the one noise pushed up most: the documents worst by the
// first pass (the top K, default 8) are then timed again, --confirm more alternating repetitions
// each (default 6; 0 for none), every document still read untimed first, and their rows are the
// medians of all repetitions. Both worsts are printed. Each read's CPU time (user + system, all
// of the process's threads) is taken beside its wall clock, and the ratio of their medians
// printed too: other work on a shared machine shows in the wall clock only, the process's own
// background threads (V8's compiler and collector) in the CPU time only.
// The `bad` set (damaged files, decompression bombs) is not timed: it measures refusals, not reading. Documents that either side cannot read are left out and counted. Writes
// bench/results/per-document.json; asserts nothing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);

// ------------------------------------------------------------------------ the timing children
/** A document whose reads have taken less than this in all is read again (up to MAX_READS times), its time the mean of its reads. */
const SHORT_SECONDS = 0.05;
const MAX_READS = 7;

if (args[0] === "--child") {
  const [, side, listFile, timedFile] = args;
  const { readFile } = await import("node:fs/promises");
  const files = JSON.parse(await readFile(listFile, "utf8"));
  // Documents timed: all of them, or those a confirming pass asks for.
  const timed = timedFile ? JSON.parse(await readFile(timedFile, "utf8")) : files;
  const time = await (side === "raw" ? rawPdfJs() : pagestreamExtract());
  const seconds = {};
  // CPU time (user + system, every thread of the process) beside the wall clock: other work on a
  // shared machine shows in the wall clock only, V8's background threads in the CPU time only.
  const cpuSeconds = {};
  // Every document read once untimed first: the code paths each kind of document takes are
  // compiled for both sides alike, and optimised as a long run has them (a table page read first
  // in the run took twice its time read after the others).
  for (const file of files) await time(file).catch(() => {});
  for (const file of timed) {
    // Timed: a document read in a few milliseconds is read again until SHORT_SECONDS are spent
    // (at most MAX_READS times), and its time is the mean of its reads, so that one collection
    // or one late timer landing in its only read does not make it the worst document of the
    // run, while the collections its reads cause on average still count (the fastest read
    // would leave them out, and raw pdf.js's more than pagestream's).
    let reads = 0;
    let spent = 0;
    let cpu = 0;
    while (reads < MAX_READS && (reads === 0 || spent < SHORT_SECONDS)) {
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const ok = await time(file).then(() => true, () => false);
      if (!ok) break;
      const used = process.cpuUsage(c0);
      spent += Number(process.hrtime.bigint() - t0) / 1e9;
      cpu += (used.user + used.system) / 1e6;
      reads++;
    }
    if (reads > 0) {
      seconds[file] = spent / reads;
      cpuSeconds[file] = cpu / reads;
    }
  }
  process.stdout.write(JSON.stringify({ seconds, cpu: cpuSeconds }));
  process.exit(0);
}

/** raw-pdfjs.mjs's work on one file: pdf.js as published, getTextContent on every page. */
async function rawPdfJs() {
  Promise.withResolvers ??= function () {
    let resolve, reject;
    const promise = new this((a, b) => ((resolve = a), (reject = b)));
    return { promise, resolve, reject };
  };
  const pkgDir = dirname(createRequire(join(root, "noop.js")).resolve("pdfjs-dist/package.json"));
  const pdfjs = await import(pathToFileURL(join(pkgDir, "legacy/build/pdf.mjs")).href);
  const { readFile } = await import("node:fs/promises");
  return async (file) => {
    const task = pdfjs.getDocument({
      data: new Uint8Array(await readFile(file)),
      isEvalSupported: false,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
      standardFontDataUrl: join(pkgDir, "standard_fonts") + "/",
      cMapUrl: join(pkgDir, "cmaps") + "/",
      cMapPacked: true,
    });
    try {
      const doc = await task.promise;
      for (let i = 1; i <= doc.numPages; i++) {
        const page = await doc.getPage(i);
        await page.getTextContent();
        page.cleanup();
      }
    } finally {
      await task.destroy();
    }
  };
}

/** The extract stage (default options) on one file, as an extraction worker runs it. */
async function pagestreamExtract() {
  const distDir = process.env.PAGESTREAM_BENCH_DIST ?? join(root, "dist");
  const dist = (p) => import(pathToFileURL(resolve(distDir, p)).href);
  const { processFile } = await dist("run/process-document.js");
  const { loadSpec } = await dist("pipeline/registry.js");
  const spec = await loadSpec("stage", "extract", process.cwd());
  const stages = [await spec.create(spec.options.parse({}), { baseDir: process.cwd(), warn: () => {} })];
  return async (file) => {
    const result = await processFile(file, stages);
    if (result.status !== "ok") throw new Error(result.error.code);
  };
}


// ------------------------------------------------------------------------------ the parent
/** The V8 switches an extraction worker starts with under the default memory cap (its heap's cap and generations, its compiler's inlining). */
async function extractionWorkerSwitches() {
  const distDir = process.env.PAGESTREAM_BENCH_DIST ?? join(root, "dist");
  const { workerSwitches } = await import(pathToFileURL(resolve(distDir, "run/worker-process.js")).href);
  const { DEFAULT_LIMITS } = await import(pathToFileURL(resolve(distDir, "pipeline/limits.js")).href);
  return workerSwitches(DEFAULT_LIMITS.max_worker_memory_mb);
}

const reps = option("--reps", Number(process.env.PAGESTREAM_BENCH_REPS ?? 3));
const top = option("--top", 8);
const corpusDir = resolve(process.env.PAGESTREAM_BENCH_CORPUS ?? join(root, "..", "shared", "corpus"));
if (!existsSync(corpusDir)) {
  console.log(`per-document: no corpus at ${corpusDir}, nothing measured (set PAGESTREAM_BENCH_CORPUS).`);
  process.exit(0);
}
const files = readdirSync(corpusDir)
  .filter((set) => set !== "bad" && statSync(join(corpusDir, set)).isDirectory())
  .flatMap((set) => readdirSync(join(corpusDir, set)).filter((f) => /\.pdf$/i.test(f)).map((f) => join(corpusDir, set, f)))
  .sort();
const resultsDir = join(root, "bench", "results");
mkdirSync(resultsDir, { recursive: true });
const listFile = join(resultsDir, "per-document-files.json");
writeFileSync(listFile, JSON.stringify(files));

const runs = { raw: [], pagestream: [] };
const pagestreamSwitches = await extractionWorkerSwitches();
/** `count` alternating repetitions of both sides, every document read untimed first, the `timed` ones (all by default) timed. */
function repeat(count, label, timedFile) {
  for (let rep = 1; rep <= count; rep++) {
    for (const side of rep % 2 ? ["raw", "pagestream"] : ["pagestream", "raw"]) {
      console.error(`  per-document  ${side}  ${label} ${rep}/${count}`);
      const child = spawnSync(process.execPath, [...(side === "raw" ? [] : pagestreamSwitches), import.meta.filename, "--child", side, listFile, ...(timedFile ? [timedFile] : [])], { encoding: "utf8", maxBuffer: 64 << 20, cwd: root });
      if (child.status !== 0) throw new Error(`per-document ${side} child failed: ${child.stderr}`);
      runs[side].push(JSON.parse(child.stdout));
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Each document both sides read in every repetition that timed it, worst ratio first; and how many were left out. */
function ratioRows() {
  const rows = [];
  let unread = 0;
  for (const file of files) {
    // A side's times for the file, wall clock or CPU, from every repetition that timed it.
    const timesOf = (side, kind) => runs[side].map((r) => r[kind][file]).filter((s) => s !== undefined);
    const raw = timesOf("raw", "seconds");
    const ours = timesOf("pagestream", "seconds");
    if (raw.length < reps || ours.length < reps) {
      unread++;
      continue;
    }
    const cpuRatio = median(timesOf("pagestream", "cpu")) / median(timesOf("raw", "cpu"));
    rows.push({ file: relative(corpusDir, file), raw: median(raw), pagestream: median(ours), ratio: median(ours) / median(raw), cpu_ratio: cpuRatio, reps: Math.min(raw.length, ours.length) });
  }
  return { rows: rows.sort((a, b) => b.ratio - a.ratio), unread };
}

repeat(reps, `rep (${files.length} files)`);
const first = ratioRows();
const confirm = option("--confirm", Number(process.env.PAGESTREAM_BENCH_CONFIRM ?? 6));
if (confirm > 0) {
  const worstFile = join(resultsDir, "per-document-worst.json");
  writeFileSync(worstFile, JSON.stringify(first.rows.slice(0, top).map((r) => join(corpusDir, r.file))));
  repeat(confirm, `confirming the worst ${top}`, worstFile);
}
const { rows, unread } = confirm > 0 ? ratioRows() : first;
const ratios = rows.map((r) => r.ratio);
const summary = {
  documents: rows.length,
  unread,
  worst: rows[0],
  worst_first_pass: first.rows[0],
  confirm_reps: confirm,
  median_ratio: median(ratios),
  median_cpu_ratio: median(rows.map((r) => r.cpu_ratio)),
  worst_cpu: [...rows].sort((a, b) => b.cpu_ratio - a.cpu_ratio)[0],
  total_ratio: rows.reduce((a, r) => a + r.pagestream, 0) / rows.reduce((a, r) => a + r.raw, 0),
};
writeFileSync(join(resultsDir, "per-document.json"), JSON.stringify({ reps, corpus: corpusDir, summary, rows }, null, 2) + "\n");

const f = (x) => x.toFixed(2);
console.log(`\n### Per document: extract stage ÷ raw pdf.js (${rows.length} documents of ${basename(corpusDir)}/*, ${unread} unreadable left out, median of ${reps}${confirm > 0 ? `; the worst ${top} of ${reps + confirm}` : ""})\n`);
console.log(`| | ratio |\n|---|---|\n| median document | ${f(summary.median_ratio)}× |\n| worst document (${summary.worst.file}) | ${f(summary.worst.ratio)}× |`);
if (confirm > 0) console.log(`| worst document, first ${reps} repetitions (${summary.worst_first_pass.file}) | ${f(summary.worst_first_pass.ratio)}× |`);
console.log(`| all documents, total time | ${f(summary.total_ratio)}× |`);
console.log(`| median document, CPU time | ${f(summary.median_cpu_ratio)}× |\n| worst document, CPU time (${summary.worst_cpu.file}) | ${f(summary.worst_cpu.cpu_ratio)}× |\n`);
console.log(`| worst ${top} | pagestream s | raw pdf.js s | ratio | CPU time ratio | repetitions |\n|---|---|---|---|---|---|`);
for (const r of rows.slice(0, top)) console.log(`| ${r.file} | ${r.pagestream.toFixed(3)} | ${r.raw.toFixed(3)} | ${f(r.ratio)}× | ${f(r.cpu_ratio)}× | ${r.reps} |`);
