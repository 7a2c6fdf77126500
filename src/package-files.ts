/**
 * Where pagestream's own files are, found from wherever this code runs: the TypeScript source
 * (tests), tsc's output in dist/, or the bundles `npm run build` writes: dist/cli.js and
 * dist/run/extraction-worker.cjs (one file each, with their modules inside). Every path to a
 * file of the package is made here, so none depends on which of those layouts is running.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "pagestream") return dir;
    if (dirname(dir) === dir) throw new Error(`pagestream's package.json was not found above ${fileURLToPath(import.meta.url)}`);
  }
}

/** The folder that holds pagestream's package.json. */
export const PACKAGE_ROOT = findPackageRoot();

/** pagestream's version, from its package.json. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The extraction worker, built by `npm run build` as one CommonJS file (see scripts/bundle.mjs; a .ts entry cannot be forked on Node 20). */
export const WORKER_ENTRY = join(PACKAGE_ROOT, "dist", "run", "extraction-worker.cjs");

/** pdf.js as one script for Node 20's code cache, built by `npm run build` (see src/stages/extract/pdfjs-script.ts). */
export const PDFJS_SCRIPT = join(PACKAGE_ROOT, "dist", "stages", "extract", "pdfjs-script.cjs");

/** The web page of `pagestream serve`, built by `npm run build` (scripts/build-page.mjs). */
export const WEB_PAGE_DIR = join(PACKAGE_ROOT, "dist", "serve", "page");
