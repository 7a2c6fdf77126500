/**
 * Reading a document's pages by OCR: each page rendered, cut down to its ink (ink-crop.ts), then
 * read by Tesseract from a grey BMP (bmp.ts), one page at a time. The next page is rendered
 * while Tesseract reads the current one (the renderer and Tesseract run on different cores), so
 * rendering costs almost nothing on top of recognition; at most two page images are held at
 * once. The next page's Tesseract is started then too, and loads its models meanwhile.
 *
 * A page that fails (a renderer error, Tesseract past the page's time budget) is reported and
 * the others are read: one bad page does not cost the document.
 */
import { describeError } from "../../core/document-error.js";
import { ChildTimeoutError } from "./child-process.js";
import { greyBmp } from "./bmp.js";
import { inkBox } from "./ink-crop.js";
import type { DocumentRenderer, Renderer } from "./page-renderer.js";
import type { PageImage } from "./pgm.js";
import { startTesseract, type StartedTesseract } from "./tesseract.js";
import { parseTsv, type OcrWord } from "./tsv.js";

export interface ReadSettings {
  tesseract: string;
  renderer: Renderer;
  languages: readonly string[];
  dpi: number;
  /** Budget of each step of a page: rendering it, then reading it. */
  pageTimeoutMs: number;
}

export type PageReading = { number: number; words: OcrWord[]; imageWidth: number; imageHeight: number } | { number: number; error: string };

export async function readPages(bytes: Uint8Array, numbers: readonly number[], settings: ReadSettings): Promise<PageReading[]> {
  let renderer: DocumentRenderer;
  try {
    renderer = await settings.renderer.open(bytes, { dpi: settings.dpi, timeoutMs: settings.pageTimeoutMs });
  } catch (err) {
    return numbers.map((number) => ({ number, error: `${settings.renderer.name} could not open the document: ${describeError(err)}` }));
  }
  const render = (number: number): Promise<PageImage | Error> => renderer.render(number).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  // Each page's Tesseract is started while the page before it is read (or, for the first, rendered), so its models are loaded when its image comes.
  const startReader = () => startTesseract(settings.tesseract, { languages: settings.languages, dpi: settings.dpi, timeoutMs: settings.pageTimeoutMs });
  let spare: StartedTesseract | undefined = numbers.length ? startReader() : undefined;
  const out: PageReading[] = [];
  try {
    let next = numbers.length ? render(numbers[0]!) : undefined;
    for (let k = 0; k < numbers.length; k++) {
      const number = numbers[k]!;
      const image = await next!;
      next = k + 1 < numbers.length ? render(numbers[k + 1]!) : undefined;
      if (image instanceof Error) {
        out.push({ number, error: `${settings.renderer.name} could not render it: ${image.message}` });
        continue;
      }
      const reader = spare ?? startReader();
      spare = k + 1 < numbers.length ? startReader() : undefined;
      try {
        const box = inkBox(image);
        const tsv = await reader.recognize(greyBmp(image, box, settings.dpi));
        const words = parseTsv(tsv).map((w) => ({ ...w, left: w.left + box.left, top: w.top + box.top }));
        out.push({ number, words, imageWidth: image.width, imageHeight: image.height });
      } catch (err) {
        const reason = err instanceof ChildTimeoutError ? `Tesseract took longer than page_timeout_seconds (${err.seconds} s) and was stopped` : describeError(err);
        out.push({ number, error: reason });
      }
    }
  } finally {
    spare?.cancel();
    await renderer.close();
  }
  return out;
}
