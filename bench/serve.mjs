#!/usr/bin/env node
// `node bench/serve.mjs`: `pagestream serve` on a 100,000-chunk archive, against references
// measured in the same run:
//   search   GET /api/search over HTTP (keep-alive, one request at a time, as a person's page
//            asks), p50/p95 over the query mix of bench/archive.mjs (a word, two words, a
//            phrase, a prefix) plus OR, NOT and a folder filter, each query once to warm its
//            pages, then timed, overall and by kind; against searchArchive called in the same
//            process as the server would (what HTTP and JSON add) and a bare FTS5 MATCH … ORDER
//            BY rank LIMIT 10 (which ranks every match);
//   cost cap a query of 1,000 repeated words and one of 199 (the most under the length cap), as
//            issue 20 §8 measured them;
//   page     the page's own bytes (HTML, script, style; raw and gzipped), and, when Chromium is
//            at /usr/bin/chromium, the time from navigating to a search's address to its first
//            hit on screen (median of 5), against loading the bare HTML.
// Nothing is asserted; prints a markdown table and writes bench/results/serve-latest.json (git
// ignores bench/results). Timings are noisy on a shared machine: compare ratios within a run.
//
//   node bench/serve.mjs [--chunks N] [--queries N] [--keep]
//     --chunks   chunks in the archive (default 100000)
//     --queries  queries per kind (default 50; 7 kinds)
//     --keep     keep the temporary folder with the archive
// Measures the build in dist/: run `npm run build` first.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { scriptArgs } from "./script-args.mjs";
import { archiveDocuments, queryMix, syntheticText } from "./synthetic-archive.mjs";

const root = resolve(import.meta.dirname, "..");
const { argv, int: arg } = scriptArgs(import.meta.url, "bench/serve");
const CHUNKS = arg("--chunks", 100_000);
const QUERIES = arg("--queries", 50);
const CHROMIUM = "/usr/bin/chromium";

const fail = (message) => {
  console.error(`bench/serve: ${message}`);
  process.exit(1);
};
if (!existsSync(join(root, "dist/serve/page/app.js"))) fail("dist/ has no built page: run `npm run build` first");
const dist = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { chunkId } = await dist("stages/chunk/chunk-id.js");
const { default: sqliteSink } = await dist("sinks/sqlite/sink.js");
const { searchArchive } = await dist("sinks/sqlite/search.js");
const { emptySummary } = await dist("run/delivery.js");
const { default: Database } = await import("better-sqlite3");

const progress = (m) => process.stderr.write(`bench/serve: ${m}\n`);
const now = () => process.hrtime.bigint();
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1] };
};
const median = (xs) => stats(xs).p50;

// ------------------------------------------------------------------------------- the archive
progress(`building a ${fmt(CHUNKS)}-chunk archive…`);
const text = syntheticText(root);
const limits = { maxTokens: 512, overlapTokens: 64, minTokens: 64 };
// Characters a token for this text, as bench/archive.mjs measures it: chunks of ~256 tokens.
const { encode } = await import("gpt-tokenizer/encoding/cl100k_base");
const sample = Array.from({ length: 200 }, text.paragraph).join("\n\n");
const charsPerToken = sample.length / encode(sample, { disallowedSpecial: new Set() }).length;
const documents = archiveDocuments(text, { chunks: CHUNKS, chunkChars: Math.round(256 * charsPerToken), charsPerToken, limits, chunkId });
const tmp = mkdtempSync(join(tmpdir(), "pagestream-bench-serve-"));
const archivePath = join(tmp, "archive.sqlite");
const sink = await sqliteSink.create(sqliteSink.options.parse({ path: archivePath }), { baseDir: tmp, warn: progress });
for (const r of documents) await sink.write(r);
await sink.close({ ...emptySummary(), documents: documents.length, ok: documents.length, complete: true });

const mix = queryMix(text, documents, QUERIES);
const queries = {
  ...mix,
  OR: mix.word.map((w, i) => `${w} OR ${mix["two words"][i].split(" ")[0]}`),
  NOT: mix["two words"].map((q) => q.replace(" ", " NOT ")),
  "folder filter": mix.word.map((w) => w),
};
const params = (kind, q) => `q=${encodeURIComponent(q)}${kind === "folder filter" ? `&folder=${encodeURIComponent("/bench/archive/")}` : ""}`;

// ------------------------------------------------------------------------------- the server
progress("starting pagestream serve…");
const child = spawn(process.execPath, [join(root, "dist/cli.js"), "serve", "--db", archivePath, "--port", "0"], { cwd: tmp, stdio: ["ignore", "pipe", "pipe"] });
child.stderr.setEncoding("utf8").on("data", (t) => process.stderr.write(t.replace(/^/gm, "  serve: ")));
const url = await new Promise((done, reject) => {
  child.once("exit", (code) => reject(new Error(`serve exited (${code})`)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const found = / at (http:\/\/\S+)$/.exec(line);
    if (found) done(found[1]);
  });
});
const api = async (path) => {
  const response = await fetch(new URL(path, url));
  const body = await response.json();
  return { status: response.status, body };
};

// ------------------------------------------------------------------------------- search
progress("searching over HTTP, and in process…");
const db = new Database(archivePath, { readonly: true });
const rawRank = db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 10");
const time = async (fn) => {
  const t = now();
  await fn();
  return ms(t);
};
const latencies = { http: [], inProcess: [], rawMatch: [] };
// Per kind: over HTTP, searchArchive in this process, and the bare FTS5 query.
const perKind = {};
const inProcessPerKind = {};
const rawPerKind = {};
let refused = 0;
for (const [kind, list] of Object.entries(queries)) {
  perKind[kind] = [];
  inProcessPerKind[kind] = [];
  rawPerKind[kind] = [];
  for (const q of list) {
    const options = { limit: 10, ...(kind === "folder filter" ? { pathPrefix: "/bench/archive/" } : {}) };
    await api(`/api/search?${params(kind, q)}`); // warm this query's pages into the cache
    const h = await time(async () => {
      const r = await api(`/api/search?${params(kind, q)}`);
      if (r.status !== 200) refused++;
    });
    let match;
    const p = await time(() => {
      try {
        match = searchArchive(db, q, options).match;
      } catch {}
    });
    const b = match ? await time(() => rawRank.all(match)) : 0;
    latencies.http.push(h);
    latencies.inProcess.push(p);
    latencies.rawMatch.push(b);
    perKind[kind].push(h);
    inProcessPerKind[kind].push(p);
    if (match) rawPerKind[kind].push(b);
  }
}

// ------------------------------------------------------------------------------- the cost cap
const thousand = Array(1000).fill(mix.word[0]).join(" ");
const underCap = Array(199).fill("the").join(" ");
const capped = {};
for (const [name, q] of [["1,000 repeated words", thousand], ["199 repeated words", underCap]]) {
  let status;
  const t = await time(async () => (status = (await api(`/api/search?q=${encodeURIComponent(q)}`)).status));
  capped[name] = { ms: t, status };
}

// ------------------------------------------------------------------------------- the page
const pageDir = join(root, "dist/serve/page");
const pageBytes = Object.fromEntries(["index.html", "app.js", "app.css"].map((f) => {
  const bytes = readFileSync(join(pageDir, f));
  return [f, { bytes: bytes.length, gzip: gzipSync(bytes).length }];
}));
let firstHit;
if (existsSync(CHROMIUM)) {
  progress("timing the first hit on screen in Chromium…");
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "pagestream-bench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await context.newPage();
  const toHit = [];
  const toHtml = [];
  for (const q of mix["two words"].slice(0, 6)) {
    const t = now();
    await page.goto(new URL(`/?q=${encodeURIComponent(q)}`, url).href);
    await page.waitForSelector(".hit, .status:has-text('No matches')");
    toHit.push(ms(t));
    const u = now();
    await page.goto(new URL("/assets/icon.svg", url).href);
    toHtml.push(ms(u));
  }
  // The first load pays for compiling the page's script once: the median leaves it out.
  firstHit = { ms: median(toHit.slice(1)), first: toHit[0], bareLoadMs: median(toHtml.slice(1)) };
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
child.kill("SIGTERM");
db.close();

// ------------------------------------------------------------------------------- report
const http = stats(latencies.http);
const inProcess = stats(latencies.inProcess);
const raw = stats(latencies.rawMatch);
const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg(), node: process.version },
  settings: { CHUNKS, QUERIES },
  queries,
  search: {
    http,
    inProcess,
    rawMatch: raw,
    refused,
    perKind: Object.fromEntries(Object.entries(perKind).map(([k, v]) => [k, stats(v)])),
    inProcessPerKind: Object.fromEntries(Object.entries(inProcessPerKind).map(([k, v]) => [k, stats(v)])),
    rawPerKind: Object.fromEntries(Object.entries(rawPerKind).map(([k, v]) => [k, stats(v)])),
  },
  costCap: capped,
  pageBytes,
  firstHit,
};
const rows = [
  [`search over HTTP: GET /api/search (${Object.keys(queries).join(", ")})`, `${http.n} queries on the ${fmt(CHUNKS)}-chunk archive`, `p50 ${fmt(http.p50, 2)} ms, p95 ${fmt(http.p95, 2)} ms`, `searchArchive in process: p50 ${fmt(inProcess.p50, 2)} ms, p95 ${fmt(inProcess.p95, 2)} ms; bare FTS5 MATCH ORDER BY rank LIMIT 10: p50 ${fmt(raw.p50, 2)} ms, p95 ${fmt(raw.p95, 2)} ms`, `${fmt(http.p50 / inProcess.p50, 2)}× (p50)`],
  ...Object.entries(capped).map(([name, c]) => [`cost cap: ${name}`, "one query", `${fmt(c.ms, 1)} ms (HTTP ${c.status})`, "issue 20 §8, before the cap: 1,000 repeated words took 25–63 s", ""]),
  ["page: own assets", Object.keys(pageBytes).join(", "), Object.entries(pageBytes).map(([f, b]) => `${f} ${fmt(b.bytes)} B (${fmt(b.gzip)} gzipped)`).join(", "), `pdf.js (loaded by the document view only): ${fmt(readFileSync(join(root, "node_modules/pdfjs-dist/build/pdf.min.mjs")).length + readFileSync(join(root, "node_modules/pdfjs-dist/build/pdf.worker.min.mjs")).length)} B`, ""],
];
if (firstHit) rows.push(["page: first hit on screen (Chromium, navigate → first .hit)", `${mix["two words"].slice(1, 6).length} searches (two words)`, `median ${fmt(firstHit.ms, 0)} ms (first load ${fmt(firstHit.first, 0)} ms)`, `loading a bare asset: ${fmt(firstHit.bareLoadMs, 0)} ms`, ""]);
console.log("| measurement | input | result | reference (same run) | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log("");
const byKind = (k) => {
  const [h, p, r] = [results.search.perKind[k], results.search.inProcessPerKind[k], results.search.rawPerKind[k]];
  return `${k} ${fmt(h.p50, 2)} / ${fmt(h.p95, 2)} ms (in process ${fmt(p.p50, 2)} / ${fmt(p.p95, 2)}; bare FTS5 ${r.n ? `${fmt(r.p50, 2)} / ${fmt(r.p95, 2)}` : "–"})`;
};
console.log("p50 / p95 by kind, over HTTP (searchArchive in process; bare FTS5 MATCH ORDER BY rank LIMIT 10): " + Object.keys(results.search.perKind).map(byKind).join(" · "));
if (refused) console.log(`${refused} queries were refused by the query syntax or the time limit (a 400), timed all the same`);
console.log(`machine: ${results.machine.cpus} × ${results.machine.model}, load ${results.machine.loadavg.map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/serve-latest.json"), JSON.stringify(results, null, 2) + "\n");
if (argv.includes("--keep")) progress(`kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
