#!/usr/bin/env node
// Diagnostic child for bench/run.mjs: pagestream's extract stage through the per-document API
// (`processFile`), one file after another, with no source walk, no sink and no CLI.
// Compared with the raw pdf.js row it isolates the extract stage's own cost (layout, paragraphs,
// records); compared with the CLI rows it shows what the workers, the runner, the sinks and the CLI add.
//
//   node bench/process-document.mjs [--clone | --pdfjs-only] FILE...
// Prints `pages N chars N seconds S pages_per_s P` like the reference raw-pdfjs.mjs script;
// the clock starts before the stage is built, so it includes the (lazy) pdf.js import, like the CLI.
// --clone also sends each result through v8.serialize / v8.deserialize (the structured clone
// `serialization: "advanced"` uses to bring a result back from its extraction worker), trimmed as
// a worker trims it for sinks that read no per-line geometry, timed on its own: it adds
// `ipc_seconds I ipc_mib M` (the clones' time and serialized size).
// --pdfjs-only does what the raw pdf.js reference does (getTextContent on every page, nothing
// else), but with pdf.js as pagestream loads and opens it (pdfjs-loader.ts: its code cache, its
// synchronous inflate, V8's own builtins put back): the gap from this row to the raw one is what
// pagestream's way of running pdf.js changes, the gap to the stage's row is the stage's own work.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";

// bench/run.mjs points PAGESTREAM_BENCH_DIST at its snapshot of dist/; run by hand, it uses dist/.
const distDir = process.env.PAGESTREAM_BENCH_DIST ?? resolve(import.meta.dirname, "..", "dist");
const dist = (p) => import(pathToFileURL(resolve(distDir, p)).href);
const { processFile, trimResult } = await dist("run/process-document.js");
const { loadSpec } = await dist("pipeline/registry.js");

const args = process.argv.slice(2);
const clone = args[0] === "--clone";
const pdfjsOnly = args[0] === "--pdfjs-only";
const files = clone || pdfjsOnly ? args.slice(1) : args;

if (pdfjsOnly) {
  const { openPdf } = await dist("stages/extract/pdfjs-loader.js");
  const { readFile } = await import("node:fs/promises");
  const t0 = process.hrtime.bigint();
  let pages = 0, chars = 0;
  for (const file of files) {
    const pdf = await openPdf(new Uint8Array(await readFile(file)));
    try {
      for (let i = 1; i <= pdf.numPages; i++) {
        const page = await pdf.getPage(i);
        const content = await page.getTextContent();
        for (const item of content.items) if ("str" in item) chars += item.str.length;
        page.cleanup();
        pages++;
      }
    } finally {
      await pdf.loadingTask.destroy();
    }
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`pages ${pages} chars ${chars} seconds ${s.toFixed(2)} pages_per_s ${(pages / s).toFixed(1)}`);
  process.exit(0);
}

const t0 = process.hrtime.bigint();
// The same extract stage the CLI rows run (default options), built as a worker builds it.
const spec = await loadSpec("stage", "extract", process.cwd());
const stages = [await spec.create(spec.options.parse({}), { baseDir: process.cwd(), warn: (m) => console.error(m) })];

let pages = 0, chars = 0, failed = 0, ipcNs = 0n, ipcBytes = 0;
for (const file of files) {
  let result = await processFile(resolve(file), stages);
  if (clone) {
    const c0 = process.hrtime.bigint();
    const wire = serialize({ type: "outcome", id: 1, outcome: { kind: "processed", documentId: "", result: trimResult(result, { lines: false }) } });
    result = deserialize(wire).outcome.result;
    ipcNs += process.hrtime.bigint() - c0;
    ipcBytes += wire.length;
  }
  if (result.status !== "ok") {
    failed++;
    console.error(`${file}: ${result.error.code}: ${result.error.message}`);
    continue;
  }
  for (const p of result.pages) chars += p.text.length;
  pages += result.pages.length;
}
const s = Number(process.hrtime.bigint() - t0) / 1e9;
const ipc = clone ? ` ipc_seconds ${(Number(ipcNs) / 1e9).toFixed(3)} ipc_mib ${(ipcBytes / 1048576).toFixed(1)}` : "";
console.log(`pages ${pages} chars ${chars} seconds ${s.toFixed(2)} pages_per_s ${(pages / s).toFixed(1)}${ipc}`);
process.exitCode = failed ? 3 : 0;
