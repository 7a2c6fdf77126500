/**
 * Rendering with pdf.js onto an @napi-rs/canvas canvas, in the worker: the document is parsed
 * once for all its pages, and no process is started per page. The canvas is painted white first
 * (a new canvas is transparent, which would read as black), and its RGBA pixels are turned into
 * grey with the Rec. 601 weights pdftoppm -gray uses too.
 */
import { createRequire } from "node:module";
import { openPdf } from "../extract/pdfjs-loader.js";
import type { DocumentRenderer, Renderer, RenderSettings } from "./page-renderer.js";
import { encodePgm } from "./pgm.js";

/** True when @napi-rs/canvas (pdfjs-dist's optional dependency) is installed. */
export function canvasInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("@napi-rs/canvas");
    return true;
  } catch {
    return false;
  }
}

interface CanvasAndContext {
  canvas: { width: number; height: number };
  context: {
    fillStyle: string;
    fillRect(x: number, y: number, w: number, h: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
}

interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

export const pdfjsRenderer: Renderer = {
  name: "pdfjs",
  async open(bytes: Uint8Array, settings: RenderSettings): Promise<DocumentRenderer> {
    const pdf = await openPdf(bytes);
    const factory = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    return {
      async render(number) {
        const page = await pdf.getPage(number);
        try {
          const viewport = page.getViewport({ scale: settings.dpi / 72 });
          const width = Math.ceil(viewport.width);
          const height = Math.ceil(viewport.height);
          const target = factory.create(width, height);
          try {
            target.context.fillStyle = "#ffffff";
            target.context.fillRect(0, 0, width, height);
            const task = page.render({ canvasContext: target.context as never, canvas: target.canvas as never, viewport });
            const timer = setTimeout(() => task.cancel(), settings.timeoutMs);
            try {
              await task.promise;
            } catch (err) {
              if ((err as Error).name === "RenderingCancelledException") throw new Error(`pdf.js took longer than ${settings.timeoutMs / 1000} s to render page ${number}`);
              throw err;
            } finally {
              clearTimeout(timer);
            }
            return encodePgm(greyOf(target.context.getImageData(0, 0, width, height).data), width, height);
          } finally {
            factory.destroy(target);
          }
        } finally {
          page.cleanup();
        }
      },
      async close() {
        await pdf.loadingTask.destroy().catch(() => {});
      },
    };
  },
};

/** RGBA → 8-bit grey, 0.299 R + 0.587 G + 0.114 B in fixed point. */
function greyOf(rgba: Uint8ClampedArray): Uint8Array {
  const grey = new Uint8Array(rgba.length / 4);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) grey[j] = (rgba[i]! * 19595 + rgba[i + 1]! * 38470 + rgba[i + 2]! * 7471 + 32768) >> 16;
  return grey;
}
