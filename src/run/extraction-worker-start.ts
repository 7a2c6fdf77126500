/**
 * What an extraction worker process starts with (dist/run/extraction-worker.cjs): it runs the
 * worker itself (extraction-worker.ts, bundled as dist/run/extraction-worker-main.cjs, 0.7 MB)
 * with a code cache of pagestream's own (script-code-cache.ts), as pdf.js is run.
 *
 * Node 20 has no compile cache for CommonJS (Node 22+ has one, src/compile-cache.ts): compiling
 * the bundle was 40–50 ms of every worker's start, and of every `pagestream extract`, against
 * 3–5 ms from the cache. The worker saves the code it compiled after its first document, so
 * the functions its first job ran are in the cache too. A source the cache does not hold is
 * compiled as before. What the worker imports as it runs (a stage given by its path, the
 * tokenizer) it imports through this file (runtime-import.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { lendImport } from "../runtime-import.js";
import { runScriptWithCodeCache } from "../script-code-cache.js";

// A script compiled from cached data has no import() of its own on Node 20: the worker uses this file's.
lendImport((specifier) => import(specifier));
const main = join(dirname(fileURLToPath(import.meta.url)), "extraction-worker-main.cjs");
const mainModule = { exports: {} };
runScriptWithCodeCache(main, readFileSync(main, "utf8"), ["exports", "require", "module", "__filename", "__dirname"], [mainModule.exports, createRequire(main), mainModule, main, dirname(main)]);
