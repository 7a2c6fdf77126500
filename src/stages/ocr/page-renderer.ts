/**
 * Rendering a document's pages to grey images for OCR. Two renderers, behind one interface:
 * pdf.js with @napi-rs/canvas, in the worker itself, and poppler's pdftoppm, as a child process
 * per page (the PDF on its stdin, the image on its stdout: no file is written). `auto` picks the
 * faster one that is installed (see `bench/ocr.mjs` for the measurement behind the order).
 */
import type { PageImage } from "./pgm.js";

export type RendererName = "pdfjs" | "pdftoppm";

/** One document open for rendering. */
export interface DocumentRenderer {
  /** Page `number` (1-based) as displayed (its /Rotate applied), at the renderer's dpi. */
  render(number: number): Promise<PageImage>;
  close(): Promise<void>;
}

export interface RenderSettings {
  dpi: number;
  /** A page that takes longer is given up (its renderer child killed). */
  timeoutMs: number;
}

export interface Renderer {
  readonly name: RendererName;
  open(bytes: Uint8Array, settings: RenderSettings): Promise<DocumentRenderer>;
}
