/**
 * pdf.js on Node 20, compiled with a code cache: Node 20 has no compile cache for modules
 * (src/compile-cache.ts), and compiling pdf.js's 1.9 MB is ~0.1 s of every extraction worker's
 * start. `npm run build` writes pdf.js's minified API and parser as one script
 * (dist/stages/extract/pdfjs-script.cjs, see scripts/bundle.mjs), which runs here through
 * `runScriptWithCodeCache`; the worker saves its compiled code after its first document
 * (`saveCodeCaches`).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PDFJS_SCRIPT } from "../../package-files.js";
import { runScriptWithCodeCache } from "../../script-code-cache.js";

/**
 * pdf.js's exports, run from the built script; undefined when there is none (tests running
 * the TypeScript source before a build). `moduleUrl` is the file pdf.js believes it is, which
 * it finds @napi-rs/canvas from.
 */
export function runPdfJsScript(moduleUrl: string): unknown {
  if (!existsSync(PDFJS_SCRIPT)) return undefined;
  const module = { exports: {} as unknown };
  runScriptWithCodeCache(PDFJS_SCRIPT, readFileSync(PDFJS_SCRIPT, "utf8"), ["exports", "require", "module", "__pdfjsModuleUrl"], [module.exports, createRequire(moduleUrl), module, moduleUrl]);
  return module.exports;
}
