#!/usr/bin/env node
// bench/startup.mjs: how long a user waits for one small job, whole process, start-up included.
// `pagestream extract` on a one-page PDF beside the floor for any pdf.js tool (the shared
// raw-pdfjs.mjs script on the same file, with the Promise.withResolvers polyfill pdf.js 6 needs
// on Node 20), pdftotext (when installed), `pagestream --help`, and `node -e 0` (Node's own
// start-up). Rows run round-robin, so a busy moment hits them alike; medians of wall time and
// of CPU time (user + system, from GNU time when present: of the process and the children it
// waits for; extract lets its worker go once the text is printed, so its CPU is the command's
// own, without the worker's). The target: extract within 1.5× the raw script's wall time;
// --help under 0.2 s.
//
//   node bench/startup.mjs [--reps N] [--pdf FILE]     (default 15 repetitions,
//                                                      fixtures/latex-style-paragraphs.pdf)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { scriptArgs } from "./script-args.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = scriptArgs(import.meta.url, "bench/startup");
const reps = args.int("--reps", Number(process.env.PAGESTREAM_BENCH_REPS) || 15);
const pdfArg = args.argv.indexOf("--pdf");
const pdf = resolve(root, pdfArg >= 0 ? args.argv[pdfArg + 1] : "fixtures/latex-style-paragraphs.pdf");
const raw = [process.env.PAGESTREAM_BENCH_RAW, join(root, "..", "shared", "bench", "raw-pdfjs.mjs")].find((f) => f && existsSync(f));
const cli = join(root, "dist", "cli.js");
if (!existsSync(cli)) {
  console.error("bench/startup: dist/cli.js is missing: run `npm run build` first");
  process.exit(1);
}
const gnuTime = existsSync("/usr/bin/time") && spawnSync("/usr/bin/time", ["-f", "%U", "true"], { encoding: "utf8" }).status === 0;
const pdftotext = spawnSync("sh", ["-c", "command -v pdftotext"], { encoding: "utf8" }).stdout.trim();
const polyfill = pathToFileURL(join(root, "dist", "stages", "extract", "promise-with-resolvers.js")).href;
const tmp = mkdtempSync(join(tmpdir(), "pagestream-startup-"));

const rows = [
  { id: "node", label: "node -e 0 (Node's own start-up)", argv: [process.execPath, "-e", "0"] },
  raw && { id: "raw", label: "raw pdf.js script (reference)", argv: [process.execPath, "--import", polyfill, raw, pdf] },
  { id: "extract", label: "pagestream extract", argv: [process.execPath, cli, "extract", pdf] },
  { id: "help", label: "pagestream --help", argv: [process.execPath, cli, "--help"] },
  pdftotext && { id: "pdftotext", label: "pdftotext", argv: [pdftotext, "-enc", "UTF-8", pdf, "-"] },
].filter(Boolean);

const samples = new Map(rows.map((r) => [r.id, []]));
for (let rep = 0; rep < reps + 1; rep++) {
  for (const row of rows) {
    const timeFile = join(tmp, "time");
    const argv = gnuTime ? ["/usr/bin/time", "-f", "%U %S", "-o", timeFile, ...row.argv] : row.argv;
    const t0 = process.hrtime.bigint();
    const r = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: "utf8" });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) {
      console.error(`bench/startup: ${row.label} failed (${r.status}): ${r.stderr.trim().split("\n").at(-1)}`);
      process.exit(1);
    }
    const cpu = gnuTime ? readFileSync(timeFile, "utf8").trim().split(/\s+/).map(Number).reduce((a, b) => a + b, 0) : null;
    if (rep > 0) samples.get(row.id).push({ wall, cpu }); // the first round warms the file cache
  }
}
rmSync(tmp, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stats = new Map(rows.map((r) => [r.id, { wall: median(samples.get(r.id).map((s) => s.wall)), cpu: gnuTime ? median(samples.get(r.id).map((s) => s.cpu)) : null }]));
const ref = stats.get("raw");
const ms = (s) => (s == null ? "n/a" : `${Math.round(s * 1000)}`);
console.log(`| one small job (${pdf.replace(root + "/", "")}, ${reps} runs) | wall ms (median) | CPU ms (median) | wall vs raw pdf.js |`);
console.log("|---|---:|---:|---:|");
for (const row of rows) {
  const s = stats.get(row.id);
  console.log(`| ${row.label} | ${ms(s.wall)} | ${ms(s.cpu)} | ${ref ? `${(s.wall / ref.wall).toFixed(2)}×` : "n/a"} |`);
}
if (ref) {
  const x = stats.get("extract").wall / ref.wall;
  console.log(`\n- extract takes ${x.toFixed(2)}× the raw pdf.js script's wall time (target ≤ 1.5×): ${x <= 1.5 ? "within target" : "OVER target"}; CPU ${stats.get("extract").cpu != null ? (stats.get("extract").cpu / ref.cpu).toFixed(2) + "× (the command's process, not its worker)" : "n/a"}.`);
}
console.log(`- --help: ${ms(stats.get("help").wall)} ms (target < 200 ms).`);
console.log(`- machine: load ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}.`);
