/**
 * What pdf.js's display layer takes from @napi-rs/canvas in Node, `DOMMatrix` and `Path2D`, as
 * globals that load it the first time one is read, instead of at pdf.js's load.
 *
 * pdf.js loads @napi-rs/canvas (a 35 MB native library) as it is loaded, to polyfill the two
 * classes it renders with; reading text never renders. Loading the library was 40 ms of CPU and
 * 0.2–0.3 s of wall time in every extraction worker's start, on a busy two-core machine. Built
 * pdf.js calls this instead (scripts/pdfjs-patches.mjs); a page rendered for OCR
 * (pdfjs-renderer.ts) reads them and gets the library's classes, as before. A class already
 * there is left alone, as pdf.js leaves it; a library that cannot be loaded leaves the global
 * undefined, as pdf.js leaves it.
 */
const POLYFILLED = ["DOMMatrix", "Path2D"] as const;

export function polyfillCanvasLazily(loadCanvas: () => Partial<Record<(typeof POLYFILLED)[number], unknown>>): void {
  let canvas: Partial<Record<(typeof POLYFILLED)[number], unknown>> | undefined;
  for (const name of POLYFILLED) {
    if (globalThis[name as keyof typeof globalThis]) continue;
    // As pdf.js's own assignment (`globalThis.DOMMatrix = …`) leaves it, once read or set.
    const settle = (value: unknown) => Object.defineProperty(globalThis, name, { value, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(globalThis, name, {
      configurable: true,
      enumerable: true,
      get() {
        try {
          canvas ??= loadCanvas();
        } catch {
          canvas = {};
        }
        settle(canvas[name]);
        return canvas[name];
      },
      set: settle,
    });
  }
}
