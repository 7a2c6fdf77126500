/**
 * Extraction asks pdf.js what a page paints, never what its images hold: images are placed in
 * the operator list undecoded (scripts/pdfjs-patches.mjs, `forText` in pdfjs-loader.ts),
 * so a scanned page costs its parsing, not its pixels.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { hugeScanPdf, imageKindsPdf } from "../../fixtures/hostile.mjs";
import { PACKAGE_ROOT } from "../../src/package-files.js";
import { loadPdfJs, openPdf } from "../../src/stages/extract/pdfjs-loader.js";
import { probePage } from "../../src/stages/extract/page-probe.js";

const dir = mkdtempSync(join(tmpdir(), "pagestream-undecoded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The names of the operations page 1 paints images with, in order. */
async function imageOperations(bytes: Uint8Array, forText: boolean): Promise<string[]> {
  const { OPS } = await loadPdfJs();
  const names = new Map(Object.entries(OPS).map(([name, fn]) => [fn, name]));
  const pdf = await openPdf(bytes, { forText });
  try {
    const list = await (await pdf.getPage(1)).getOperatorList();
    return list.fnArray.map((fn) => names.get(fn)!).filter((name) => /Image/.test(name));
  } finally {
    await pdf.loadingTask.destroy();
  }
}

describe("images placed, never decoded", () => {
  it("counts every kind of image as pdf.js decoding them does", async () => {
    const bytes = new Uint8Array(imageKindsPdf());
    const decoded = await imageOperations(bytes, false);
    const placed = await imageOperations(bytes, true);
    // image, mask, solid-colour dot, soft-masked image, inline image, the form's image twice
    expect(decoded).toEqual(["paintImageXObject", "paintImageMaskXObject", "paintSolidColorImageMask", "paintImageXObject", "paintInlineImageXObject", "paintImageXObject", "paintImageXObject"]);
    expect(placed.map((name) => name.replace("paintInlineImageXObject", "paintImageXObject"))).toEqual(decoded.map((name) => name.replace("paintInlineImageXObject", "paintImageXObject")));
    const pdf = await openPdf(bytes, { forText: true });
    try {
      expect(await probePage(await pdf.getPage(1))).toEqual({ images: 6, invisibleText: false });
    } finally {
      await pdf.loadingTask.destroy();
    }
  });

  it("reads a page-sized scan of 16,384² pixels (1 GiB decoded) under the default worker memory cap", async () => {
    const file = join(dir, "huge-scan.pdf");
    writeFileSync(file, hugeScanPdf());
    const { stdout } = await promisify(execFile)(process.execPath, [join(PACKAGE_ROOT, "dist", "cli.js"), "extract", "--format", "json", file], { maxBuffer: 16 << 20 });
    const { document, pages } = JSON.parse(stdout);
    expect(document.scan).toBe(true);
    expect(pages[0]).toMatchObject({ images: 1, scan: true, scan_reason: "image_only", text: "" });
  }, 120_000);
});
