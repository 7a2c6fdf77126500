#!/usr/bin/env node
// Diagnostic child for bench/run.mjs: what sending a document's result from its extraction
// worker back to the run costs. The workers use `serialization: "advanced"`, i.e. V8's
// structured clone; this runs the extract stage in-process (like process-document.mjs) and
// clones each result through v8.serialize / v8.deserialize, timing only that.
//
//   node bench/ipc-cost.mjs FILE...
// Prints `pages N chars N seconds S pages_per_s P ipc_seconds I ipc_mib M`: S is the whole
// run (extraction and clones), I the clones alone, M the serialized bytes.
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";

const distDir = process.env.PAGESTREAM_BENCH_DIST ?? resolve(import.meta.dirname, "..", "dist");
const dist = (p) => import(pathToFileURL(resolve(distDir, p)).href);
const { processDocument } = await dist("core/process-document.js");
const { loadSpec } = await dist("core/registry.js");

const t0 = process.hrtime.bigint();
const spec = await loadSpec("stage", "extract", process.cwd());
const stages = [await spec.create(spec.options.parse({}), { baseDir: process.cwd(), warn: (m) => console.error(m) })];

let pages = 0, chars = 0, failed = 0, ipcNs = 0n, bytes = 0;
for (const file of process.argv.slice(2)) {
  const info = await stat(file);
  const item = { uri: file, size: info.size, mtimeMs: info.mtimeMs, fingerprint: "", read: async () => new Uint8Array(await readFile(file)) };
  const result = await processDocument(item, stages);
  const c0 = process.hrtime.bigint();
  const wire = serialize({ type: "result", job: 1, result });
  const back = deserialize(wire).result;
  ipcNs += process.hrtime.bigint() - c0;
  bytes += wire.length;
  if (back.status !== "ok") {
    failed++;
    console.error(`${file}: ${back.error.code}: ${back.error.message}`);
    continue;
  }
  for (const p of back.pages) chars += p.text.length;
  pages += back.pages.length;
}
const s = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`pages ${pages} chars ${chars} seconds ${s.toFixed(2)} pages_per_s ${(pages / s).toFixed(1)} ipc_seconds ${(Number(ipcNs) / 1e9).toFixed(3)} ipc_mib ${(bytes / 1048576).toFixed(1)}`);
process.exitCode = failed ? 3 : 0;
