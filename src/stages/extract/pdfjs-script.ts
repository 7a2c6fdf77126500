/**
 * pdf.js as pagestream runs it: `npm run build` writes pdf.js's minified API and parser as one
 * script (dist/stages/extract/pdfjs-script.cjs, see scripts/bundle.mjs), run here as a function
 * whose parameters are what pdf.js takes from its surroundings:
 * - a code cache (`runScriptWithCodeCache`): compiling pdf.js's 1.9 MB is ~0.1 s of every
 *   extraction worker's start, and Node 20 has no compile cache for modules (src/compile-cache.ts);
 *   the worker saves its compiled code after its first document (`saveCodeCaches`);
 * - `DecompressionStream`: zlib's synchronous inflate instead of the platform's web stream
 *   (synchronous-decompression.ts), for pdf.js alone;
 * - `Response`: a stand-in that loads Node's fetch only if pdf.js makes one (lazy-response.ts);
 * - `__pdfjsPolyfillCanvas`: @napi-rs/canvas loaded when pdf.js first renders, not as it loads
 *   (lazy-canvas.ts).
 * The same on every Node version, so that each runs the same pdf.js the same way.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PDFJS_SCRIPT } from "../../package-files.js";
import { runScriptWithCodeCache } from "../../script-code-cache.js";
import { polyfillCanvasLazily } from "./lazy-canvas.js";
import { LazyResponse } from "./lazy-response.js";
import { SynchronousDecompressionStream } from "./synchronous-decompression.js";

/**
 * pdf.js's exports, run from the built script; undefined when there is none (tests running
 * the TypeScript source before a build). `moduleUrl` is the file pdf.js believes it is, which
 * it finds @napi-rs/canvas from.
 */
export function runPdfJsScript(moduleUrl: string): unknown {
  if (!existsSync(PDFJS_SCRIPT)) return undefined;
  const module = { exports: {} as unknown };
  runScriptWithCodeCache(
    PDFJS_SCRIPT,
    readFileSync(PDFJS_SCRIPT, "utf8"),
    ["exports", "require", "module", "__pdfjsModuleUrl", "DecompressionStream", "Response", "__pdfjsPolyfillCanvas"],
    [module.exports, createRequire(moduleUrl), module, moduleUrl, SynchronousDecompressionStream, LazyResponse, polyfillCanvasLazily],
  );
  return module.exports;
}
