// The change pagestream makes to pdf.js's minified API (pdf.min.mjs) when it bundles it
// (scripts/bundle.mjs): its load no longer loads @napi-rs/canvas. pdf.js requires the library
// at its top level, in Node, and takes `DOMMatrix` and `Path2D` from it; the patched build
// hands that to `__pdfjsPolyfillCanvas` (src/stages/extract/lazy-canvas.ts, a parameter of the
// script), which makes the two globals load the library when first read. Matched exactly once,
// or the build fails: a new pdf.js must be looked at again.
import { readFile } from "node:fs/promises";

const lazyCanvas = {
  what: "the @napi-rs/canvas polyfills of DOMMatrix and Path2D",
  pattern:
    /try\{const ([\w$]+)=process\.getBuiltinModule\("module"\)\.createRequire\(import\.meta\.url\);try\{([\w$]+)=\1\("@napi-rs\/canvas"\)\}catch\(([\w$]+)\)\{warn\(`Cannot load "@napi-rs\/canvas" package: "\$\{\3\}"\.`\)\}\}catch\(([\w$]+)\)\{warn\(`Cannot access the \\`require\\` function: "\$\{\4\}"\.`\)\}globalThis\.DOMMatrix\|\|\(\2\?\.DOMMatrix\?globalThis\.DOMMatrix=\2\.DOMMatrix:warn\("Cannot polyfill `DOMMatrix`, rendering may be broken\."\)\);globalThis\.Path2D\|\|\(\2\?\.Path2D\?globalThis\.Path2D=\2\.Path2D:warn\("Cannot polyfill `Path2D`, rendering may be broken\."\)\);/g,
  replace: '__pdfjsPolyfillCanvas(()=>process.getBuiltinModule("module").createRequire(import.meta.url)("@napi-rs/canvas"));',
};

/** pdf.js's API source with the patch applied. */
export function patchPdfJsApi(source, file = "pdf.min.mjs") {
  const found = source.match(lazyCanvas.pattern)?.length ?? 0;
  if (found !== 1) throw new Error(`${file}: expected ${lazyCanvas.what} once, found it ${found} times (pdf.js changed; see scripts/pdfjs-lazy-canvas.mjs)`);
  return source.replace(lazyCanvas.pattern, lazyCanvas.replace);
}

/** The esbuild plugin that applies it. */
export const pdfjsLazyCanvas = {
  name: "pdfjs-lazy-canvas",
  setup(b) {
    b.onLoad({ filter: /[\\/]pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.min\.mjs$/ }, async (args) => ({
      contents: patchPdfJsApi(await readFile(args.path, "utf8")),
      loader: "js",
    }));
  },
};
