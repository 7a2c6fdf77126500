/** Rendering with poppler's pdftoppm (Debian poppler-utils): one child per page, nothing on disk. */
import { runChild } from "./child-process.js";
import type { DocumentRenderer, Renderer, RenderSettings } from "./page-renderer.js";
import { readPgm } from "./pgm.js";

export function pdftoppmRenderer(executable: string): Renderer {
  return {
    name: "pdftoppm",
    async open(bytes: Uint8Array, settings: RenderSettings): Promise<DocumentRenderer> {
      return {
        async render(number) {
          // `-` reads the PDF from stdin; with no output root the one page's PGM goes to stdout.
          const args = ["-r", String(settings.dpi), "-gray", "-f", String(number), "-l", String(number), "-"];
          const { stdout } = await runChild(executable, args, { input: bytes, timeoutMs: settings.timeoutMs });
          if (stdout.length === 0) throw new Error(`pdftoppm rendered nothing for page ${number}`);
          return readPgm(stdout);
        },
        async close() {},
      };
    },
  };
}
