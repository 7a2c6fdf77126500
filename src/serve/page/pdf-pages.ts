/**
 * The original pages, drawn by pdf.js in the browser from bytes the page already has (the
 * server's copy of the original, or a file the user dropped). pdf.js is loaded only here, the
 * first time a document view needs it, from the server's copy of pdfjs-dist.
 *
 * Run as a viewer of untrusted files: no scripting (the viewer's scripting sandbox is never
 * loaded and no annotation layer is made: annotations are only painted), no WebAssembly
 * (`useWasm: false`: a PDF's PostScript functions are interpreted rather than compiled; the
 * server's policy forbids compiling anyway), no XFA forms, no eval (pdf.js 6 has no eval path,
 * and the policy forbids it). Pages are drawn when they scroll near the screen.
 */
import type * as PdfJs from "pdfjs-dist";

type PdfModule = typeof PdfJs;
let loaded: Promise<PdfModule> | undefined;

function pdfjsBase(): string {
  return document.body.dataset.pdfjs ?? "/pdfjs/";
}

async function pdfjs(): Promise<PdfModule> {
  loaded ??= (import(/* the server's copy */ `${pdfjsBase()}pdf.min.mjs`) as Promise<PdfModule>).then((module) => {
    module.GlobalWorkerOptions.workerSrc = `${pdfjsBase()}pdf.worker.min.mjs`;
    return module;
  });
  return loaded;
}

export class PdfPages {
  private readonly observer: IntersectionObserver;
  private readonly drawn = new WeakSet<HTMLCanvasElement>();

  private constructor(private readonly document: PdfJs.PDFDocumentProxy) {
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const canvas = entry.target as HTMLCanvasElement;
        this.observer.unobserve(canvas);
        void this.draw(canvas);
      }
    }, { rootMargin: "150% 0px" });
  }

  /** Opens the bytes (pdf.js takes them over: pass a copy if they are needed again). */
  static async open(bytes: Uint8Array): Promise<PdfPages> {
    const lib = await pdfjs();
    const base = pdfjsBase();
    const task = lib.getDocument({
      data: bytes,
      cMapUrl: `${base}cmaps/`,
      cMapPacked: true,
      standardFontDataUrl: `${base}standard_fonts/`,
      iccUrl: `${base}iccs/`,
      wasmUrl: `${base}wasm/`,
      useWasm: false,
      enableXfa: false,
      verbosity: lib.VerbosityLevel.ERRORS,
    });
    return new PdfPages(await task.promise);
  }

  get pageCount(): number {
    return this.document.numPages;
  }

  /** Draws page `number` into the canvas once it comes near the screen. */
  attach(canvas: HTMLCanvasElement, number: number): void {
    canvas.dataset.page = String(number);
    void this.document.getPage(number).then((page) => {
      const { width, height } = page.getViewport({ scale: 1 });
      canvas.style.aspectRatio = `${width} / ${height}`;
    }, () => {});
    this.observer.observe(canvas);
  }

  private async draw(canvas: HTMLCanvasElement): Promise<void> {
    if (this.drawn.has(canvas)) return;
    this.drawn.add(canvas);
    const lib = await pdfjs();
    const number = Number(canvas.dataset.page);
    try {
      const page = await this.document.getPage(number);
      const natural = page.getViewport({ scale: 1 });
      const cssWidth = canvas.clientWidth || 600;
      const viewport = page.getViewport({ scale: (cssWidth * Math.min(window.devicePixelRatio || 1, 2)) / natural.width });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, viewport, annotationMode: lib.AnnotationMode.ENABLE }).promise;
      canvas.dataset.rendered = "true";
      page.cleanup();
    } catch (err) {
      canvas.dataset.rendered = "failed";
      canvas.setAttribute("aria-label", `Page ${number} could not be drawn: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.observer.disconnect();
    await this.document.loadingTask.destroy();
  }
}
