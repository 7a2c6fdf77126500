/**
 * The original pages, drawn by pdf.js in the browser from bytes the page already has (the
 * server's copy of the original, or a file the user dropped). pdf.js is loaded only here, the
 * first time a document view needs it, from the server's copy of pdfjs-dist.
 *
 * Run as a viewer of untrusted files: no scripting (the viewer's scripting sandbox is never
 * loaded and no annotation layer is made: annotations are only painted), no WebAssembly
 * (`useWasm: false`: a PDF's PostScript functions are interpreted rather than compiled; the
 * server's policy forbids compiling anyway), no XFA forms, no eval (pdf.js 6 has no eval path,
 * and the policy forbids it). Pages are drawn when they scroll near the screen, with a spinner
 * until they are, and a sentence when one cannot be.
 */
import type * as PdfJs from "pdfjs-dist";
import { placeRun, type PlacedRun } from "./page-marks.js";

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

/** One page's place on the screen: the sheet sized by the zoom, the canvas pdf.js draws on, the marks over it, and the spinner or sentence. */
export interface PageSurface {
  number: number;
  sheet: HTMLElement;
  canvas: HTMLCanvasElement;
  /** Shows that the page is being drawn, or why it could not be. */
  state: HTMLElement;
}

/** Largest canvas drawn, in pixels (a zoomed page past it is drawn at less than the screen's resolution rather than not at all). */
const MAX_CANVAS_PIXELS = 16_777_216;

export class PdfPages {
  private readonly observer: IntersectionObserver;
  private readonly surfaces = new Map<HTMLCanvasElement, PageSurface>();
  /** Canvases drawn (or being drawn) at their current size, and the render under way on each. */
  private readonly drawn = new Map<HTMLCanvasElement, PdfJs.RenderTask | undefined>();

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
      // JPEG 2000 and JBIG2 images are decoded by the JS builds of OpenJPEG and jbig2dec served
      // here (their .wasm builds are not: the policy forbids compiling WebAssembly).
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

  /** Draws the page into its surface once it comes near the screen; resolves when the sheet has the page's proportions. */
  async attach(surface: PageSurface): Promise<void> {
    surface.canvas.dataset.page = String(surface.number);
    this.surfaces.set(surface.canvas, surface);
    this.observer.observe(surface.canvas);
    try {
      const { width, height } = (await this.document.getPage(surface.number)).getViewport({ scale: 1 });
      surface.sheet.style.aspectRatio = `${width} / ${height}`;
    } catch {
      // draw() says why.
    }
  }

  /** Draws again, at their new size, the pages drawn so far (after a zoom); the others when they come near the screen. */
  redraw(): void {
    for (const [canvas, task] of this.drawn) {
      task?.cancel();
      this.drawn.delete(canvas);
      this.observer.unobserve(canvas);
      this.observer.observe(canvas);
    }
  }

  /** The runs of text of a page, placed on the displayed page (scale 1, its own rotation), and its size in points. */
  async textRuns(number: number): Promise<{ runs: PlacedRun[]; width: number; height: number }> {
    const lib = await pdfjs();
    const page = await this.document.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    // Characters are as wide as in a font of the run's family (pdf.js names a generic one), so
    // a word's mark starts where the word does, not where an average letter would put it.
    const ruler = document.createElement("canvas").getContext("2d")!;
    const runs: PlacedRun[] = [];
    for (const item of content.items) {
      if (!("str" in item) || !item.str) continue;
      ruler.font = `100px ${content.styles[item.fontName]?.fontFamily ?? "sans-serif"}`;
      runs.push(placeRun(item.str, lib.Util.transform(viewport.transform, item.transform), item.width, (ch) => ruler.measureText(ch).width));
    }
    return { runs, width: viewport.width, height: viewport.height };
  }

  private async draw(canvas: HTMLCanvasElement): Promise<void> {
    const surface = this.surfaces.get(canvas);
    if (!surface || this.drawn.has(canvas)) return;
    this.drawn.set(canvas, undefined);
    const lib = await pdfjs();
    const number = surface.number;
    showState(surface, "drawing", `Drawing page ${number}…`);
    try {
      const page = await this.document.getPage(number);
      const natural = page.getViewport({ scale: 1 });
      const cssWidth = surface.sheet.clientWidth || 600;
      const wanted = (cssWidth * Math.min(window.devicePixelRatio || 1, 2)) / natural.width;
      const scale = Math.min(wanted, Math.sqrt(MAX_CANVAS_PIXELS / (natural.width * natural.height)));
      const viewport = page.getViewport({ scale });
      // Drawn off screen, then shown at once: a redraw never blanks the page it replaces.
      const offscreen = document.createElement("canvas");
      offscreen.width = Math.floor(viewport.width);
      offscreen.height = Math.floor(viewport.height);
      const task = page.render({ canvas: offscreen, viewport, annotationMode: lib.AnnotationMode.ENABLE });
      this.drawn.set(canvas, task);
      await task.promise;
      canvas.width = offscreen.width;
      canvas.height = offscreen.height;
      canvas.getContext("2d")!.drawImage(offscreen, 0, 0);
      this.drawn.set(canvas, undefined);
      canvas.dataset.rendered = "true";
      showState(surface, "drawn");
      page.cleanup();
    } catch (err) {
      // A zoom cancelled this drawing: the next one is already asked for.
      if ((err as Error).name === "RenderingCancelledException") return;
      canvas.dataset.rendered = "failed";
      const sentence = `Page ${number} could not be drawn: ${(err as Error).message}. Its text is beside it.`;
      canvas.setAttribute("aria-label", sentence);
      showState(surface, "failed", sentence);
    }
  }

  async close(): Promise<void> {
    this.observer.disconnect();
    await this.document.loadingTask.destroy();
  }
}

function showState(surface: PageSurface, state: "drawing" | "drawn" | "failed", sentence = ""): void {
  surface.sheet.dataset.state = state;
  surface.state.textContent = sentence;
  surface.state.hidden = state === "drawn";
  surface.state.setAttribute("role", state === "failed" ? "alert" : "status");
}
