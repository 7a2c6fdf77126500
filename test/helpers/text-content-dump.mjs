// Prints the text content and structure tree of every page of the PDFs named, as pdf.js gives
// them, in a process of its own (two pdf.js builds cannot share one): `built` is pagestream's
// (dist/, with its patches, scripts/pdfjs-patches.mjs), `unpatched` is pdfjs-dist as published.
// Both open documents as extraction does (no standard font file read for a font the document
// does not embed), the built one with its images placed, not decoded, and no font files built. Numbers are written so that -0 stays -0; what only
// the built pdf.js gives is left out: the style's `fontName` (its patch 1) and the painted paths
// (its patch 6).
//   node test/helpers/text-content-dump.mjs built|unpatched FILE...
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, ...files] = process.argv.slice(2);
const root = resolve(import.meta.dirname, "..", "..");
const pdfjsDir = join(root, "node_modules", "pdfjs-dist");

let open;
if (mode === "built") {
  const { openPdf } = await import(pathToFileURL(join(root, "dist", "stages", "extract", "pdfjs-loader.js")).href);
  // As extraction opens it: images placed, not decoded, and no font file built (patches 2, 8, 10).
  open = (data) => openPdf(data, { forText: true });
} else {
  // The polyfills pdf.js needs on Node 20, as pagestream's loader applies them.
  for (const polyfill of ["promise-with-resolvers.js", "array-buffer-transfer.js"]) await import(pathToFileURL(join(root, "dist", "stages", "extract", polyfill)).href);
  const pdfjs = await import(pathToFileURL(join(pdfjsDir, "legacy", "build", "pdf.mjs")).href);
  const { documentParameters } = await import(pathToFileURL(join(root, "dist", "stages", "extract", "pdfjs-loader.js")).href);
  // As extraction opens it; its images are decoded all the same (leaving them undecoded is a patch).
  open = (data) => pdfjs.getDocument(documentParameters(pdfjs, data, { forText: true })).promise;
}

/** JSON that keeps -0 apart from 0. */
const exact = (_key, value) => (Object.is(value, -0) ? "-0" : value);

const out = {};
for (const file of files) {
  const pdf = await open(new Uint8Array(readFileSync(file)));
  const pages = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const { items, styles } = await page.getTextContent({ includeMarkedContent: true });
    for (const style of Object.values(styles)) delete style.fontName;
    // The structure tree, which the built pdf.js hands over uncopied (its patch 5).
    const structTree = await page.getStructTree();
    // The painted paths only the built pdf.js records (its patch 6) are compared in the test, with the operator list's.
    pages.push(JSON.stringify({ items: items.filter((item) => item.type !== "paintedPath"), styles, structTree }, exact));
  }
  await pdf.loadingTask.destroy();
  out[file] = pages;
}
process.stdout.write(JSON.stringify(out));
