import { describe, expect, it } from "vitest";
import { FontCacheWatch } from "../../src/stages/extract/pdfjs-font-cache.js";

describe("when pdf.js's font cache is emptied", () => {
  it("a document with fonts of its own on each page: once 24 are held", () => {
    const watch = new FontCacheWatch();
    const at: number[] = [];
    for (let page = 1; page <= 60; page++) {
      watch.pageRead([`g_d0_f${2 * page}`, `g_d0_f${2 * page + 1}`]);
      if (watch.holdsFontsOfPast) {
        at.push(page);
        watch.emptied();
      }
    }
    expect(at).toEqual([12, 24, 36, 48, 60]);
  });

  it("a document that keeps using its 30 fonts: never", () => {
    const watch = new FontCacheWatch();
    const fonts = Array.from({ length: 30 }, (_, i) => `g_d0_f${i}`);
    for (let page = 0; page < 200; page++) {
      watch.pageRead(fonts.filter((_, i) => (i + page) % 3 === 0)); // a third of them on each page
      expect(watch.holdsFontsOfPast).toBe(false);
    }
  });
});
