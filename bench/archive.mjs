#!/usr/bin/env node
// `node bench/archive.mjs`: chunking throughput, archive build time and search latency, each
// against a reference measured in the same run:
//   chunking  the chunk stage's chunker over generated documents, in document tokens per second,
//             against gpt-tokenizer encoding the same text once (the floor: chunking must count);
//   archive   the sqlite sink writing ≥ 100,000 chunks (documents, pages, chunks, FTS5 index and
//             its ranking bounds, batched transactions, closing checkpoint), against the same rows
//             written by the same writer in the same batches into the same tables with the FTS5
//             index and the bounds dropped (plain INSERTs);
//   search    `pagestream search`'s searchArchive (bm25 order, snippet, highlights, pages) on that
//             archive, p50/p95 over a query mix and by kind, against a bare FTS5 MATCH … ORDER BY
//             rank LIMIT 10 (which ranks every match), and a LIKE scan of chunk text (no index)
//             for phrases;
//   export    `pagestream export`'s compaction (liveLines into a file written whole) of a jsonl
//             chunk log holding the same 100,000 chunks and every tenth document replaced once,
//             against copying the same log's lines into a file the same way (no compaction);
//   CJK       an archive of Chinese-like text (--cjk-chunks chunks): its size with the bigram
//             column against the same rows without it (what schema 4 stored), and searchArchive
//             on two-character words, against a bare FTS5 MATCH of the same expression.
// The text is generated (deterministic: a fixed seed): English words from fixtures/manifest.json
// ranked by frequency, then 20,000 made-up rarer words, drawn Zipf-like, so the index sees a
// realistic vocabulary. Nothing is asserted; prints a markdown table and writes
// bench/results/archive-latest.json (git ignores bench/results).
//
//   node bench/archive.mjs [--chunks N] [--chunk-tokens N] [--chunk-docs N] [--queries N] [--keep]
//     --chunks        chunks in the archive (default 100000)
//     --chunk-tokens  about how many tokens each archived chunk holds (default 256)
//     --chunk-docs    documents for the chunking measurement (default 300, ~1.5 M tokens)
//     --queries       queries per kind in the search measurement (default 50; 4 kinds)
//     --cjk-chunks    chunks in the CJK archive (default 20000)
//     --keep          keep the temporary folder with the two databases
// Measures the build in dist/: run `npm run build` first.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { scriptArgs } from "./script-args.mjs";
import { archiveDocuments, PAGES_PER_DOCUMENT, queryMix, syntheticCjkText, syntheticText } from "./synthetic-archive.mjs";

const root = resolve(import.meta.dirname, "..");
const { argv, int: arg } = scriptArgs(import.meta.url, "bench/archive");
const CHUNKS = arg("--chunks", 100_000);
const CHUNK_TOKENS = arg("--chunk-tokens", 256);
const CHUNK_DOCS = arg("--chunk-docs", 300);
const QUERIES = arg("--queries", 50);
const CJK_CHUNKS = arg("--cjk-chunks", 20_000);

function fail(message) {
  console.error(`bench/archive: ${message}`);
  process.exit(1);
}
if (!existsSync(join(root, "dist/stages/chunk/chunker.js"))) fail("dist/ has no chunk stage: run `npm run build` first");
const dist = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { chunkDocument } = await dist("stages/chunk/chunker.js");
const { chunkId } = await dist("stages/chunk/chunk-id.js");
const { loadTokenizer } = await dist("stages/chunk/tokenizer.js");
const { renderPageText } = await dist("text/page-text.js");
const { default: sqliteSink } = await dist("sinks/sqlite/sink.js");
const { searchArchive } = await dist("sinks/sqlite/search.js");
const { documentRows } = await dist("sinks/sqlite/document-rows.js");
const { prepareArchive } = await dist("sinks/sqlite/archive-schema.js");
const { emptySummary } = await dist("run/delivery.js");
const { ArchiveWriter } = await dist("sinks/sqlite/archive-writer.js");
const { default: jsonlSink } = await dist("sinks/jsonl.js");
const { liveLines, wholeLines } = await dist("sinks/jsonl/live-lines.js");
const { replaceFile } = await dist("sinks/jsonl/replace-file.js");
const { default: Database } = await import("better-sqlite3");
const { encode } = await import("gpt-tokenizer/encoding/cl100k_base");

// ------------------------------------------------------------------------------- text
const text = syntheticText(root);
const { pick, between, word, paragraph } = text;

/** A page as the extract stage makes it: a 14 pt heading and body paragraphs, one line each. */
function pageRecord(documentId, uri, number) {
  const texts = [`${number}. ${word()} ${word()}`, ...Array.from({ length: between(3, 6) }, paragraph)];
  const lines = texts.map((text, i) => {
    const fontSize = i === 0 ? 14 : 10;
    const run = { text, x: 72, y: 750 - i * 20, width: text.length * fontSize * 0.5, fontSize, fontName: "f1" };
    return { ...run, runs: [run] };
  });
  const paragraphs = texts.map((_, i) => ({ start: i, end: i + 1, kind: "text" }));
  const text = renderPageText(lines, paragraphs, "reflow");
  return { type: "page", documentId, uri, number, width: 612, height: 792, rotation: 0, lines, paragraphs, text, mode: "reflow", empty: false, orderSource: "geometry", orderReason: "untagged", untaggedGlyphs: 0, columns: 1 };
}
const hex = (n) => n.toString(16).padStart(64, "0");

// ------------------------------------------------------------------------------- helpers
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const now = () => process.hrtime.bigint();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const rows = [];
const results = { machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg(), node: process.version }, settings: { CHUNKS, CHUNK_TOKENS, CHUNK_DOCS, QUERIES, CJK_CHUNKS } };
const progress = (m) => process.stderr.write(`bench/archive: ${m}\n`);

// ------------------------------------------------------------------------------- 1. chunking
progress(`generating ${CHUNK_DOCS} documents for the chunking measurement…`);
const tokenizer = await loadTokenizer("cl100k_base");
const documents = Array.from({ length: CHUNK_DOCS }, (_, d) => {
  const uri = `/bench/chunking/doc-${d}.pdf`;
  return { documentId: hex(d + 1), uri, pages: Array.from({ length: PAGES_PER_DOCUMENT }, (_, p) => pageRecord(hex(d + 1), uri, p + 1)) };
});
const docTexts = documents.map((d) => d.pages.map((p) => p.text).join("\n\n"));
const limits = { maxTokens: 512, overlapTokens: 64, minTokens: 64 };
const encodeRun = () => {
  const t0 = now();
  let tokens = 0;
  for (const t of docTexts) tokens += encode(t, { disallowedSpecial: new Set() }).length;
  return { tokens, ms: ms(t0) };
};
const chunkRun = () => {
  const t0 = now();
  let chunks = 0;
  for (const d of documents) chunks += chunkDocument(d, limits, tokenizer).length;
  return { chunks, ms: ms(t0) };
};
encodeRun(); // warm-up (merge caches, JIT)
chunkRun();
const encodeRuns = [encodeRun(), encodeRun(), encodeRun()];
const chunkRuns = [chunkRun(), chunkRun(), chunkRun()];
const docTokens = encodeRuns[0].tokens;
const encodeMs = median(encodeRuns.map((r) => r.ms));
const chunkMs = median(chunkRuns.map((r) => r.ms));
results.chunking = { documents: CHUNK_DOCS, tokens: docTokens, chunks: chunkRuns[0].chunks, limits, chunkerMs: chunkMs, encodeMs, chunkerTokensPerSecond: docTokens / (chunkMs / 1000), encodeTokensPerSecond: docTokens / (encodeMs / 1000) };
rows.push([
  "chunking: chunker (max 512, overlap 64, min 64)",
  `${fmt(docTokens)} tokens, ${fmt(chunkRuns[0].chunks)} chunks`,
  `${fmt(results.chunking.chunkerTokensPerSecond)} tokens/s`,
  `gpt-tokenizer encode: ${fmt(results.chunking.encodeTokensPerSecond)} tokens/s`,
  `${fmt(results.chunking.chunkerTokensPerSecond / results.chunking.encodeTokensPerSecond, 2)}×`,
]);

// ------------------------------------------------------------------------------- 2. archive
progress(`generating ${fmt(CHUNKS)} chunks of ~${CHUNK_TOKENS} tokens…`);
const charsPerToken = docTexts.reduce((n, t) => n + t.length, 0) / docTokens;
const chunkChars = Math.round(CHUNK_TOKENS * charsPerToken);
const archiveResults = archiveDocuments(text, { chunks: CHUNKS, chunkChars, charsPerToken, limits, chunkId });
const archiveText = archiveResults.reduce((n, r) => n + r.chunks.reduce((m, c) => m + c.text.length, 0), 0);
const tmp = mkdtempSync(join(tmpdir(), "pagestream-bench-archive-"));
const summary = { ...emptySummary(), documents: archiveResults.length, ok: archiveResults.length, complete: true };

progress("building the archive with the sqlite sink…");
const archivePath = join(tmp, "archive.sqlite");
let t0 = now();
const sink = await sqliteSink.create(sqliteSink.options.parse({ path: archivePath }), { baseDir: tmp, warn: progress });
for (const r of archiveResults) await sink.write(r);
await sink.close(summary);
const sinkMs = ms(t0);

progress("building the reference: the same rows, same writer and batches, no FTS5 index or bounds…");
const plainPath = join(tmp, "plain.sqlite");
/**
 * The sink's rows written by its own writer in the same batches of 10,000 rows, outside the
 * sink: `prepare` changes the tables first, `rowsOf` the rows.
 */
function writeRows(path, results, prepare, rowsOf = (rows) => rows) {
  const db = new Database(path);
  prepareArchive(db, { stemming: "none", trigram: false });
  prepare(db);
  const writer = new ArchiveWriter(db);
  let batch = 0;
  db.exec("BEGIN IMMEDIATE");
  for (const r of results) {
    const docRows = rowsOf(documentRows(r));
    writer.write(docRows, new Date().toISOString());
    batch += 1 + docRows.pages.length + docRows.chunks.length;
    if (batch >= 10_000) {
      db.exec("COMMIT; BEGIN IMMEDIATE");
      batch = 0;
    }
  }
  db.exec("COMMIT");
  db.pragma("wal_checkpoint(TRUNCATE)");
  writer.close();
  db.close();
}
t0 = now();
writeRows(plainPath, archiveResults, (db) => db.exec("DROP TRIGGER chunks_fts_insert; DROP TRIGGER chunks_fts_delete; DROP TRIGGER chunks_fts_update; DROP TABLE chunks_fts; DROP TABLE IF EXISTS term_impacts; DROP TABLE IF EXISTS impact_blocks;"));
const plainMs = ms(t0);
const mib = (p) => statSync(p).size / 2 ** 20;
results.archive = { documents: archiveResults.length, chunks: CHUNKS, chunkTokens: CHUNK_TOKENS, chunkTextMiB: archiveText / 2 ** 20, sinkMs, plainInsertMs: plainMs, sinkMiB: mib(archivePath), plainMiB: mib(plainPath) };
rows.push([
  "archive build: sqlite sink (FTS5, batched)",
  `${fmt(CHUNKS)} chunks (~${CHUNK_TOKENS} tokens, ${fmt(archiveText / 2 ** 20, 0)} MiB of text) in ${fmt(archiveResults.length)} documents`,
  `${fmt(sinkMs / 1000, 1)} s (${fmt(CHUNKS / (sinkMs / 1000))} chunks/s, ${fmt(results.archive.sinkMiB)} MiB)`,
  `plain INSERT, no FTS5 or bounds: ${fmt(plainMs / 1000, 1)} s (${fmt(results.archive.plainMiB)} MiB)`,
  `${fmt(sinkMs / plainMs, 2)}×`,
]);

// ------------------------------------------------------------------------------- 3. search
progress("searching…");
const db = new Database(archivePath, { readonly: true });
const queries = queryMix(text, archiveResults, QUERIES);
const rawRank = db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 10");
const like = db.prepare("SELECT seq FROM chunks WHERE text LIKE ? LIMIT 10");
const time = (fn) => {
  const t = now();
  fn();
  return ms(t);
};
const latencies = { searchArchive: [], rawMatch: [], likeScan: [] };
// Per kind: searchArchive, and the bare FTS5 query beside it.
const perKind = {};
const rawPerKind = {};
let hits = 0;
for (const [kind, list] of Object.entries(queries)) {
  perKind[kind] = [];
  rawPerKind[kind] = [];
  for (const q of list) {
    const { match } = searchArchive(db, q, { limit: 10 }); // warm this query's pages into the cache
    const a = time(() => (hits += searchArchive(db, q, { limit: 10 }).hits.length));
    const b = time(() => rawRank.all(match));
    latencies.searchArchive.push(a);
    latencies.rawMatch.push(b);
    perKind[kind].push(a);
    rawPerKind[kind].push(b);
  }
}
for (const q of queries.phrase.slice(0, Math.min(20, QUERIES))) latencies.likeScan.push(time(() => like.all(`%${q.slice(1, -1)}%`)));
db.close();
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1] };
};
results.search = { queries, hitsReturned: hits, searchArchive: stats(latencies.searchArchive), rawMatch: stats(latencies.rawMatch), likeScan: stats(latencies.likeScan), perKind: Object.fromEntries(Object.entries(perKind).map(([k, v]) => [k, stats(v)])), rawPerKind: Object.fromEntries(Object.entries(rawPerKind).map(([k, v]) => [k, stats(v)])) };
const s = results.search;
rows.push([
  `search: searchArchive, limit 10 (${Object.keys(queries).join(", ")})`,
  `${s.searchArchive.n} queries on the ${fmt(CHUNKS)}-chunk archive`,
  `p50 ${fmt(s.searchArchive.p50, 2)} ms, p95 ${fmt(s.searchArchive.p95, 2)} ms`,
  `bare FTS5 MATCH ORDER BY rank LIMIT 10: p50 ${fmt(s.rawMatch.p50, 2)} ms, p95 ${fmt(s.rawMatch.p95, 2)} ms; LIKE scan (${s.likeScan.n} phrases): p50 ${fmt(s.likeScan.p50, 0)} ms`,
  `${fmt(s.searchArchive.p50 / s.rawMatch.p50, 2)}× (p50)`,
]);

// ------------------------------------------------------------------------------- 4. export
progress("writing a jsonl chunk log of the same chunks, every tenth document replaced once…");
const logPath = join(tmp, "chunks.jsonl");
{
  const sink = await jsonlSink.create(jsonlSink.options.parse({ records: "chunks", path: logPath }), { baseDir: tmp, warn: () => {} });
  for (const r of archiveResults) await sink.write(r);
  for (const r of archiveResults.filter((_, i) => i % 10 === 0)) await sink.write(r, { documentId: r.document.documentId });
  await sink.checkpoint();
  await sink.close(summary);
}
const logBytes = statSync(logPath).size;
const timed = async (fn) => {
  const t = now();
  const n = await fn();
  return { n, ms: ms(t) };
};
const exportRuns = [];
const copyRuns = [];
for (let i = 0; i < 3; i++) {
  copyRuns.push(await timed(() => replaceFile(join(tmp, "copy.jsonl"), wholeLines(logPath))));
  exportRuns.push(await timed(() => replaceFile(join(tmp, "export.jsonl"), liveLines(logPath))));
}
const exportMs = median(exportRuns.map((r) => r.ms));
const copyMs = median(copyRuns.map((r) => r.ms));
results.export = { logMiB: logBytes / 2 ** 20, logLines: copyRuns[0].n, liveLines: exportRuns[0].n, exportMs, copyMs };
rows.push([
  "export: live chunks of a jsonl log (pagestream export, mode: snapshot)",
  `${fmt(copyRuns[0].n)} lines (${fmt(logBytes / 2 ** 20)} MiB; every tenth document replaced) → ${fmt(exportRuns[0].n)} live chunks`,
  `${fmt(exportMs / 1000, 2)} s (${fmt(exportRuns[0].n / (exportMs / 1000))} chunks/s)`,
  `the same lines copied, no compaction: ${fmt(copyMs / 1000, 2)} s`,
  `${fmt(exportMs / copyMs, 2)}×`,
]);

// ------------------------------------------------------------------------------- 5. CJK
progress(`building a CJK archive of ${fmt(CJK_CHUNKS)} chunks, with and without the bigram column…`);
const cjkText = syntheticCjkText(text.random);
const cjkResults = archiveDocuments(cjkText, { chunks: CJK_CHUNKS, chunkChars: 400, charsPerToken: 1.1, limits, chunkId }).map((r, d) => ({
  ...r,
  uri: r.uri.replace("/archive/", "/cjk/"),
  chunks: r.chunks.map((c) => ({ ...c, uri: c.uri.replace("/archive/", "/cjk/"), id: chunkId(c.documentId, c.uri.replace("/archive/", "/cjk/"), c.index) })),
  document: { ...r.document, uri: r.uri.replace("/archive/", "/cjk/"), title: `文书 ${d}` },
}));
const cjkPath = join(tmp, "cjk.sqlite");
t0 = now();
{
  const sink = await sqliteSink.create(sqliteSink.options.parse({ path: cjkPath }), { baseDir: tmp, warn: progress });
  for (const r of cjkResults) await sink.write(r);
  await sink.close(summary);
}
const cjkBuildMs = ms(t0);
const noBigramsPath = join(tmp, "cjk-without-bigrams.sqlite");
t0 = now();
// The same rows with an empty bigram column: the archive as schema 4 stored it.
writeRows(noBigramsPath, cjkResults, () => {}, (rows) => ({ ...rows, chunks: rows.chunks.map((c) => ({ ...c, cjk: "" })) }));
const noBigramsMs = ms(t0);
const cjkDb = new Database(cjkPath, { readonly: true });
const cjkQueries = [];
while (cjkQueries.length < QUERIES) {
  const w = cjkText.word();
  if ([...w].length === 2) cjkQueries.push(w);
}
const cjkLatency = { searchArchive: [], rawMatch: [] };
let cjkHits = 0;
const cjkRaw = cjkDb.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 10");
for (const q of cjkQueries) {
  const { match } = searchArchive(cjkDb, q, { limit: 10 });
  cjkLatency.searchArchive.push(time(() => (cjkHits += searchArchive(cjkDb, q, { limit: 10 }).hits.length)));
  cjkLatency.rawMatch.push(time(() => cjkRaw.all(match)));
}
cjkDb.close();
const withoutDb = new Database(noBigramsPath, { readonly: true });
let hitsWithout = 0;
for (const q of cjkQueries) hitsWithout += searchArchive(withoutDb, q, { limit: 10 }).hits.length;
withoutDb.close();
const withMiB = mib(cjkPath);
const withoutMiB = mib(noBigramsPath);
results.cjk = { chunks: CJK_CHUNKS, withBigramsMiB: withMiB, withoutBigramsMiB: withoutMiB, buildMs: cjkBuildMs, buildWithoutMs: noBigramsMs, hitsReturned: cjkHits, hitsWithoutBigrams: hitsWithout, searchArchive: stats(cjkLatency.searchArchive), rawMatch: stats(cjkLatency.rawMatch) };
rows.push([
  "CJK archive: size with the bigram column",
  `${fmt(CJK_CHUNKS)} chunks of ~400 ideographs`,
  `${fmt(withMiB, 1)} MiB (built in ${fmt(cjkBuildMs / 1000, 1)} s)`,
  `the same rows without it (schema 4): ${fmt(withoutMiB, 1)} MiB (${fmt(noBigramsMs / 1000, 1)} s)`,
  `${fmt(withMiB / withoutMiB, 2)}×`,
]);
rows.push([
  "CJK search: searchArchive, two-character words",
  `${cjkQueries.length} queries: ${fmt(cjkHits)} hits (${fmt(hitsWithout)} without the column)`,
  `p50 ${fmt(results.cjk.searchArchive.p50, 2)} ms, p95 ${fmt(results.cjk.searchArchive.p95, 2)} ms`,
  `bare FTS5 MATCH of the same expression: p50 ${fmt(results.cjk.rawMatch.p50, 2)} ms, p95 ${fmt(results.cjk.rawMatch.p95, 2)} ms`,
  `${fmt(results.cjk.searchArchive.p50 / results.cjk.rawMatch.p50, 2)}× (p50)`,
]);

// ------------------------------------------------------------------------------- report
console.log("| measurement | input | result | reference (same run) | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log("");
console.log("search p50 / p95 by kind, searchArchive (bare FTS5 MATCH ORDER BY rank LIMIT 10): " + Object.entries(s.perKind).map(([k, v]) => `${k} ${fmt(v.p50, 2)} / ${fmt(v.p95, 2)} ms (${fmt(s.rawPerKind[k].p50, 2)} / ${fmt(s.rawPerKind[k].p95, 2)})`).join(" · "));
console.log(`machine: ${results.machine.cpus} × ${results.machine.model}, load ${results.machine.loadavg.map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/archive-latest.json"), JSON.stringify(results, null, 2) + "\n");
if (argv.includes("--keep")) progress(`kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
