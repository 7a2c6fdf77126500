/**
 * CVE-2026-16633 and CVE-2024-4367 are "arbitrary JavaScript execution upon opening a malicious
 * PDF" in pdf.js. Documents here are opened by pdfjs-loader.ts, which never loads pdf.js's
 * scripting and runs a pdf.js without an eval path; these tests keep it so: PDFs that carry
 * JavaScript (an OpenAction, a page-open action, a named script, a link) and a font whose
 * FontMatrix smuggles code into glyph drawing are extracted and rendered, and nothing runs:
 * the scripts' global flag stays unset and the loopback server they would call gets no
 * connection.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { javascriptPdf } from "../fixtures/hostile.mjs";
import { openPdf } from "../src/stages/extract/pdfjs-loader.js";
import { extractFile, okPages } from "./helpers/extract.js";

const ran = () => (globalThis as { pagestreamScriptRan?: unknown }).pagestreamScriptRan;

describe("PDFs that carry JavaScript", () => {
  let server: Server;
  let connections = 0;
  let dir: string;
  let scripted: string;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as { port: number };
    dir = await mkdtemp(join(tmpdir(), "pagestream-scripts-"));
    scripted = join(dir, "javascript-action.pdf");
    await writeFile(scripted, javascriptPdf(`http://127.0.0.1:${port}/collect`));
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    await rm(dir, { recursive: true, force: true });
  });

  it("the fixture really carries the scripts (pdf.js sees an OpenAction and a page-open action)", async () => {
    const pdf = await openPdf(new Uint8Array(await readFile(scripted)));
    try {
      const names = (actions: unknown) => [...((actions as Map<string, string[]> | null) ?? new Map()).keys()];
      expect(names(await pdf.getJSActions())).toContain("OpenAction");
      expect(names(await (await pdf.getPage(1)).getJSActions())).toContain("PageOpen");
    } finally {
      await pdf.loadingTask.destroy();
    }
  });

  for (const [name, file] of [
    ["JavaScript actions", () => scripted],
    ["a FontMatrix carrying code (CVE-2024-4367)", () => "fixtures/bad/font-matrix-injection.pdf"],
  ] as const) {
    it(`extracts and renders a page with ${name}, and nothing runs`, async () => {
      const pages = okPages(await extractFile(file(), {}, "default"));
      expect(pages[0]!.text).toBe("Hello from a hand-made page.");
      // Rendering draws the glyphs: the path the FontMatrix payload aimed at.
      const pdf = await openPdf(new Uint8Array(await readFile(file())));
      try {
        const page = await pdf.getPage(1);
        const viewport = page.getViewport({ scale: 1 });
        const { canvas, context } = pdf.canvasFactory.create(viewport.width, viewport.height) as { canvas: unknown; context: unknown };
        await page.render({ canvas, canvasContext: context, viewport } as Parameters<typeof page.render>[0]).promise;
      } finally {
        await pdf.loadingTask.destroy();
      }
      expect(ran()).toBeUndefined();
      expect(connections).toBe(0);
    });
  }

  it("pagestream extract prints the text of the scripted PDF and makes no connection", () => {
    const r = spawnSync(process.execPath, [resolve("dist/cli.js"), "extract", scripted], { encoding: "utf8" });
    expect([r.status, r.stdout]).toEqual([0, "Hello from a hand-made page.\n"]);
    expect(connections).toBe(0);
  });
});
