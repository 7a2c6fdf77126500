/**
 * pdf.js's package files (standard fonts, CMaps) are read once for the process
 * (src/stages/extract/package-data-cache.ts): a document that names Helvetica gets the same
 * Liberation bytes as the one before, without the file system.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PackageDataCache } from "../../src/stages/extract/package-data-cache.js";
import { openPdf } from "../../src/stages/extract/pdfjs-loader.js";

const dir = mkdtempSync(join(tmpdir(), "pagestream-package-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pdf.js's package data", () => {
  it("is read once for the process, and each document gets a copy of its own", async () => {
    writeFileSync(join(dir, "Font-A.ttf"), Buffer.from([1, 2, 3]));
    const factory = () => new PackageDataCache({ standardFontDataUrl: dir + "/" });
    const first = await factory().fetch({ kind: "standardFontDataUrl", filename: "Font-A.ttf" });
    expect([...first]).toEqual([1, 2, 3]);
    // The file changes on disk: the process still has what it read.
    writeFileSync(join(dir, "Font-A.ttf"), Buffer.from([9, 9, 9]));
    first[0] = 7;
    expect([...(await factory().fetch({ kind: "standardFontDataUrl", filename: "Font-A.ttf" }))]).toEqual([1, 2, 3]);
  });

  it("says which file it could not read, as pdf.js does, and reads it when it is there later", async () => {
    const fonts = new PackageDataCache({ standardFontDataUrl: dir + "/" });
    await expect(fonts.fetch({ kind: "standardFontDataUrl", filename: "Font-B.ttf" })).rejects.toThrow(`Unable to load font data at: ${dir}/Font-B.ttf`);
    writeFileSync(join(dir, "Font-B.ttf"), Buffer.from([4]));
    expect([...(await fonts.fetch({ kind: "standardFontDataUrl", filename: "Font-B.ttf" }))]).toEqual([4]);
    await expect(fonts.fetch({ kind: "cMapUrl", filename: "UniJIS-UCS2-H.bcmap" })).rejects.toThrow("Ensure that the `cMapUrl` API parameter is provided.");
  });

  it("gives pdf.js the standard font it substitutes for one a document names but does not embed, when it draws", async () => {
    // Helvetica, not embedded: opened for drawing, pdf.js reads its metrics and glyph names from
    // LiberationSans; opened for extraction, it reads the text without the file (useSystemFonts,
    // as in a browser), and fetches nothing.
    const body = "BT /F1 12 Tf 72 720 Td (Helvetica, not embedded) Tj ET";
    const objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
      `<< /Length ${body.length} >>\nstream\n${body}\nendstream`,
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ];
    let pdf = "%PDF-1.7\n";
    const offsets = objects.map((o, i) => {
      const at = pdf.length;
      pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
      return at;
    });
    pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${pdf.length}\n%%EOF\n`;
    const fetch = vi.spyOn(PackageDataCache.prototype, "fetch");
    for (const forText of [false, true, false]) {
      const doc = await openPdf(new Uint8Array(Buffer.from(pdf, "latin1")), { forText });
      try {
        const { items } = await (await doc.getPage(1)).getTextContent();
        expect(items.map((item) => ("str" in item ? item.str : "")).join("")).toBe("Helvetica, not embedded");
      } finally {
        await doc.loadingTask.destroy();
      }
    }
    expect(fetch.mock.calls.map(([asked]) => asked)).toEqual([
      { kind: "standardFontDataUrl", filename: "LiberationSans-Regular.ttf" },
      { kind: "standardFontDataUrl", filename: "LiberationSans-Regular.ttf" },
    ]);
    fetch.mockRestore();
  });
});
