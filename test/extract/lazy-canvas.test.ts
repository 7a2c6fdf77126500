import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { polyfillCanvasLazily } from "../../src/stages/extract/lazy-canvas.js";

const NAMES = ["DOMMatrix", "Path2D"] as const;
const global = globalThis as unknown as Record<string, unknown>;

describe("polyfillCanvasLazily, pdf.js's DOMMatrix and Path2D loaded when first read", () => {
  let saved: (PropertyDescriptor | undefined)[] = [];
  beforeEach(() => {
    saved = NAMES.map((n) => Object.getOwnPropertyDescriptor(globalThis, n));
    for (const n of NAMES) delete global[n];
  });
  afterEach(() => {
    NAMES.forEach((n, i) => (saved[i] ? Object.defineProperty(globalThis, n, saved[i]!) : delete global[n]));
  });

  it("loads the library only when a class is read, once, and gives its classes", () => {
    class Matrix {}
    class Path {}
    let loads = 0;
    polyfillCanvasLazily(() => (loads++, { DOMMatrix: Matrix, Path2D: Path }));
    expect(loads).toBe(0);
    expect(global.DOMMatrix).toBe(Matrix);
    expect(global.Path2D).toBe(Path);
    expect(loads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(globalThis, "DOMMatrix")).toEqual({ value: Matrix, writable: true, enumerable: true, configurable: true });
  });

  it("leaves a class that is already there, and leaves the global undefined when the library cannot be loaded", () => {
    class Own {}
    global.DOMMatrix = Own;
    polyfillCanvasLazily(() => {
      throw new Error("Cannot find module '@napi-rs/canvas'");
    });
    expect(global.DOMMatrix).toBe(Own);
    expect(global.Path2D).toBeUndefined();
  });
});

describe("the built pdf.js (scripts/pdfjs-patches.mjs)", () => {
  it("reads a PDF's text without loading @napi-rs/canvas, and gives its DOMMatrix once one is read", () => {
    // A process of its own: vitest's may have loaded the library already.
    const loader = pathToFileURL(resolve("dist/stages/extract/pdfjs-loader.js")).href;
    const script = `
      import { createRequire } from "node:module";
      import { readFileSync } from "node:fs";
      const require = createRequire(${JSON.stringify(resolve("package.json"))});
      const loaded = () => Object.keys(require.cache).some((k) => k.includes("@napi-rs/canvas"));
      const { openPdf } = await import(${JSON.stringify(loader)});
      const doc = await openPdf(new Uint8Array(readFileSync("fixtures/two-pages.pdf")));
      const page = await doc.getPage(1);
      const items = (await page.getTextContent()).items.length;
      await page.getOperatorList();
      const afterText = loaded();
      const same = globalThis.DOMMatrix === require("@napi-rs/canvas").DOMMatrix;
      await doc.loadingTask.destroy();
      console.log(JSON.stringify({ items, afterText, same }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ items: 2, afterText: false, same: true });
  });
});
