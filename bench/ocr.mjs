#!/usr/bin/env node
// `node bench/ocr.mjs`: OCR pages per second of a pagestream pipeline with the ocr stage, with 1
// and 2 workers and each renderer, against the reference measured in the same run on the same
// pages: every page rendered by `pdftoppm -r 300 -gray` and piped into `tesseract - - tsv`, one
// page after another (OMP_THREAD_LIMIT=1, as pagestream runs Tesseract; a row with Tesseract's
// own default threads shows why). The reference also runs two pages at a time, for the 2-worker
// comparison. Rows run round-robin, repetitions' medians reported. Nothing is asserted; prints a
// markdown table and writes bench/results/ocr-latest.json (git ignores bench/results).
//
//   node bench/ocr.mjs [--reps N] [--copies N] [--default-threads]
//     --reps             repetitions per row (default 3, or PAGESTREAM_BENCH_REPS)
//     --copies           how many times each document is listed (default 2)
//     --default-threads  also time the reference with Tesseract's default OpenMP threads (slow)
//     --png-reference    also time the reference as STACK.md spells it: pdftoppm -r 300 -gray -png
//                        to a file, then tesseract on the file (slow: the PNG encoding)
//   PAGESTREAM_BENCH_OCR_CORPUS=DIR  image-only PDFs to read (default ../shared/corpus/ocr;
//                                    without it, the generated fixtures/ocr-scan-*.pdf)
// Measures the build in dist/: run `npm run build` first. Needs tesseract and pdftoppm.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(import.meta.dirname, "..");
const { argv, int: arg } = scriptArgs(import.meta.url, "bench/ocr");
const reps = arg("--reps", Number(process.env.PAGESTREAM_BENCH_REPS ?? 3));
const copies = arg("--copies", 2);
const defaultThreads = argv.includes("--default-threads");
const pngReference = argv.includes("--png-reference");
const cli = join(root, "dist/cli.js");

function fail(message) {
  console.error(`bench/ocr: ${message}`);
  process.exit(1);
}
if (!existsSync(cli)) fail("dist/ is missing: run `npm run build` first");
for (const program of ["tesseract", "pdftoppm", "pdfinfo"]) {
  if (spawnSync(program, ["-v"], { stdio: "ignore" }).error) {
    console.log(`bench/ocr: ${program} is not installed (apt-get install -y tesseract-ocr poppler-utils), nothing measured.`);
    process.exit(0);
  }
}

// ---------------------------------------------------------------------------------- inputs
const corpusDir = resolve(process.env.PAGESTREAM_BENCH_OCR_CORPUS ?? join(root, "../shared/corpus/ocr"));
const fromCorpus = existsSync(corpusDir) ? readdirSync(corpusDir).filter((f) => f.endsWith(".pdf")).sort().map((f) => join(corpusDir, f)) : [];
const documents = fromCorpus.length ? fromCorpus : readdirSync(join(root, "fixtures")).filter((f) => /^ocr-scan-.*\.pdf$/.test(f)).sort().map((f) => join(root, "fixtures", f));
const pageCount = (file) => Number(/Pages:\s+(\d+)/.exec(spawnSync("pdfinfo", [file], { encoding: "utf8" }).stdout)?.[1] ?? 0);
const listed = Array.from({ length: copies }, (_, copy) => documents.map((file) => ({ file, name: `${copy + 1}-${basename(file)}`, pages: pageCount(file) }))).flat();
const pages = listed.reduce((n, d) => n + d.pages, 0);
const work = mkdtempSync(join(tmpdir(), "pagestream-bench-ocr-"));
const docsDir = join(work, "docs");
mkdirSync(docsDir);
for (const d of listed) symlinkSync(d.file, join(docsDir, d.name));
const languages = process.env.PAGESTREAM_BENCH_OCR_LANGUAGES ?? "eng";
// GNU time reports the CPU of a command and everything it waited for (workers, tesseract, pdftoppm).
const gnuTime = spawnSync("/usr/bin/time", ["-f", "%U", "true"], { stdio: "ignore" }).status === 0;
let timed = 0;

// ---------------------------------------------------------------------------------- rows
/** The reference: per page, pdftoppm's PGM piped into tesseract (or a PNG file in between); `parallel` pages at a time. */
function reference(parallel, threads, png = false) {
  const tasks = listed.flatMap((d) => Array.from({ length: d.pages }, (_, i) => ({ file: d.file, page: i + 1 })));
  const { OMP_THREAD_LIMIT: _limit, ...inherited } = process.env;
  const env = threads ? { ...inherited, OMP_THREAD_LIMIT: String(threads) } : inherited;
  return async () => {
    const started = process.hrtime.bigint();
    let next = 0;
    const one = async (cpu) => {
      while (next < tasks.length) {
        const { file, page } = tasks[next++];
        const command = png
          ? `pdftoppm -r 300 -gray -png -singlefile -f ${page} -l ${page} '${file}' '${work}/page' && tesseract '${work}/page.png' - -l ${languages} tsv > /dev/null && rm '${work}/page.png'`
          : `pdftoppm -r 300 -gray -f ${page} -l ${page} '${file}' | tesseract - - --dpi 300 -l ${languages} tsv > /dev/null`;
        const used = await shell(command, env);
        cpu.seconds += used;
      }
    };
    const cpu = { seconds: 0 };
    await Promise.all(Array.from({ length: parallel }, () => one(cpu)));
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: cpu.seconds };
  };
}

/** The product: `pagestream run` with extract → flag-scans → ocr, a JSONL sink, an empty run folder each time. */
function pipeline(workers, renderer) {
  return async (rep) => {
    const dir = join(work, `run-${workers}-${renderer}-${rep}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "pipeline.yaml"),
      [
        `concurrency: ${workers}`,
        "timeout_seconds: 3600",
        "source:",
        "  type: folder",
        `  path: ${docsDir}`,
        "stages:",
        "  - type: extract",
        "  - type: flag-scans",
        "  - type: ocr",
        `    renderer: ${renderer}`,
        `    languages: [${languages.split("+").join(", ")}]`,
        "  - type: strip-furniture",
        "sinks:",
        "  - type: jsonl",
        "    records: pages",
        "    path: out/pages.jsonl",
        "",
      ].join("\n"),
    );
    const started = process.hrtime.bigint();
    const cpuSeconds = await run(process.execPath, [cli, "run", "--progress", "never", "--log-level", "warn"], { cwd: dir });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const records = readFileSync(join(dir, "out/pages.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.type === "page");
    const read = records.filter((r) => r.source === "ocr" && !r.empty).length;
    if (read !== pages) throw new Error(`the ${workers}-worker ${renderer} run read ${read} of ${pages} pages by OCR`);
    rmSync(dir, { recursive: true, force: true });
    return { seconds, cpuSeconds };
  };
}

const rows = [
  { key: "reference", label: "reference: pdftoppm -r 300 -gray piped into tesseract, page after page", run: reference(1, 1) },
  { key: "pipeline-1-pdftoppm", label: "pagestream pipeline, 1 worker, renderer pdftoppm", run: pipeline(1, "pdftoppm") },
  { key: "pipeline-1-pdfjs", label: "pagestream pipeline, 1 worker, renderer pdfjs", run: pipeline(1, "pdfjs") },
  { key: "reference-2", label: "reference, two pages at a time", run: reference(2, 1) },
  { key: "pipeline-2-auto", label: "pagestream pipeline, 2 workers, default renderer (auto)", run: pipeline(2, "auto") },
  ...(defaultThreads ? [{ key: "reference-omp", label: "reference with Tesseract's default threads (OpenMP)", run: reference(1, 0) }] : []),
  ...(pngReference ? [{ key: "reference-png", label: "reference through a PNG file per page (pdftoppm -png, then tesseract)", run: reference(1, 1, true) }] : []),
];

const results = { machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg() }, documents: listed.map((d) => d.name), pages, reps, rows: {} };
try {
  for (let rep = 0; rep < reps; rep++) {
    for (const row of rows) {
      process.stderr.write(`bench/ocr: ${row.label} (${rep + 1}/${reps}) … `);
      const { seconds, cpuSeconds } = await row.run(rep);
      process.stderr.write(`${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s)\n`);
      const r = (results.rows[row.key] ??= { label: row.label, seconds: [], cpuSeconds: [] });
      r.seconds.push(seconds);
      r.cpuSeconds.push(cpuSeconds);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------- report
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];
const ref = pages / median(results.rows.reference.seconds);
const refCpu = median(results.rows.reference.cpuSeconds) / pages;
const table = ["| row | seconds (median) | OCR pages/s | vs reference | CPU s per page | CPU vs reference |", "|---|---|---|---|---|---|"];
for (const row of rows) {
  const r = results.rows[row.key];
  r.median = median(r.seconds);
  r.pagesPerSecond = pages / r.median;
  r.ratio = r.pagesPerSecond / ref;
  r.cpuPerPage = median(r.cpuSeconds) / pages;
  table.push(`| ${row.label} | ${r.median.toFixed(1)} | ${r.pagesPerSecond.toFixed(3)} | ${r.ratio.toFixed(2)}× | ${r.cpuPerPage.toFixed(2)} | ${(refCpu / r.cpuPerPage).toFixed(2)}× |`);
}
console.log(`OCR: ${pages} pages (${documents.length} documents × ${copies}, ${fromCorpus.length ? corpusDir : "generated fixtures"}), ${reps} repetition(s), load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end\n`);
console.log(table.join("\n"));
console.log(
  "\nvs reference: pages/s ÷ the reference's pages/s in this run (above 1 is faster). CPU: user + system seconds of the whole process tree (the run, its workers, every pdftoppm and tesseract), per page; CPU vs reference is the reference's per page ÷ the row's (above 1 is less work), steadier than wall time on a shared machine. Compare ratios within one run.",
);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/ocr-latest.json"), JSON.stringify(results, null, 2) + "\n");

// ---------------------------------------------------------------------------------- helpers
function shell(command, env) {
  return run("sh", ["-c", `set -e; ${command}`], { env });
}

/** Runs a command to its end; resolves with the CPU seconds (user + system) of it and all it waited for, from GNU time. */
function run(command, args, options) {
  const cpuFile = join(work, `cpu-${timed++}.txt`);
  const [program, argv] = gnuTime ? ["/usr/bin/time", ["-f", "%U %S", "-o", cpuFile, command, ...args]] : [command, args];
  return new Promise((ok, ko) => {
    const child = spawn(program, argv, { ...options, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    child.on("error", ko);
    child.on("close", (code) => {
      if (code !== 0) return ko(new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr}`));
      if (!gnuTime) return ok(NaN);
      const [user, system] = readFileSync(cpuFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
      ok(user + system);
    });
  });
}
