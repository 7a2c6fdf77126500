import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/display/api.js";
import { DocumentError, describeError } from "../../core/document-error.js";
import { withNativeBuiltins } from "./native-builtins.js";
import { PackageDataCache } from "./package-data-cache.js";
import { runPdfJsScript } from "./pdfjs-script.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

let pdfjsModule: Promise<PdfJs> | undefined;
/** Whether the loaded pdf.js is pagestream's build, with its patches (scripts/pdfjs-patches.mjs). */
let patched = false;

const pdfjsDir = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

/**
 * pdf.js is heavy (~0.2 s to import): it is loaded the first time a document is opened, once,
 * after the two polyfills it needs on Node 20. Its parser, pdf.worker (1.3 MB minified), is
 * loaded with it: in Node pdf.js parses on the calling thread and would otherwise import the
 * parser when the first document opens, after a worker process has sat idle waiting for its
 * first job. Importing it sets `globalThis.pdfjsWorker`, which pdf.js then uses instead.
 *
 * The minified builds pdf.js ships (pdf.min.mjs, pdf.worker.min.mjs: the same code, ~0.04 s
 * less to compile), run as one script with a code cache and a synchronous inflate
 * (pdfjs-script.ts); imported as modules only when there is no build (tests of the TypeScript
 * source), where they inflate through the platform's stream, with the same text out. Either way
 * the builtins pdf.js's polyfills replace are put back (native-builtins.ts).
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsModule ??= Promise.all([import("./promise-with-resolvers.js"), import("./array-buffer-transfer.js")]).then(() =>
    withNativeBuiltins(async () => {
      const minified = pathToFileURL(join(pdfjsDir, "legacy", "build", "pdf.min.mjs")).href;
      const script = runPdfJsScript(minified);
      if (script) {
        patched = true;
        return script as PdfJs;
      }
      const pdfjs = (await import(minified)) as PdfJs;
      await import(pathToFileURL(join(pdfjsDir, "legacy", "build", "pdf.worker.min.mjs")).href);
      return pdfjs;
    }),
  );
  return pdfjsModule;
}

/** Whether the loaded pdf.js records the paths a page paints in its text content (scripts/pdfjs-patches.mjs, patch 6): pagestream's build does. */
export function recordsPaintedPaths(): boolean {
  return patched;
}

export interface OpenOptions {
  /** Password for encrypted documents that need one to open. */
  password?: string;
  /**
   * Opened to read its text, never to draw it (extraction): pdf.js then does none of the work
   * only drawing needs. Images are placed in the operator list, never decoded, and fonts are not
   * rebuilt into files (scripts/pdfjs-patches.mjs, which key on `maxImageSize` 1); a font the
   * document does not embed is read without a stand-in font file (`useSystemFonts`, below). A
   * renderer needs all three. pdf.js unpatched (tests of the TypeScript source before a build)
   * decodes images and builds fonts either way.
   */
  forText?: boolean;
}

/**
 * Opens a PDF with the options pagestream always wants, and owns them all:
 * - no code from the document ever runs: pdf.js 6 has no `eval` path left (fonts are
 *   interpreted, never compiled to JS; the `isEvalSupported` option is gone with it), and
 *   scripting exists only in its viewer, which is not loaded; no network, no font loaded from
 *   the system, no font faces: text extraction needs glyph-to-Unicode maps, never rendered glyphs;
 * - the package's own standard-font data and CMaps, as plain directory paths (a `file://` URL
 *   fails in Node), each file read once for the process (package-data-cache.ts); without the
 *   CMaps, CJK text comes back empty;
 * - warnings off: a damaged file is reported through the error record, not the console;
 * - a copy of the bytes, because pdf.js detaches the array it is given;
 * - with `forText`, the work only drawing needs left out (see OpenOptions): every image above
 *   1 pixel is left undecoded (a 1×1 one is decoded, as pdf.js tells a solid-colour mask by its
 *   pixel).
 *
 * The caller must `loadingTask.destroy()` the returned document in a `finally`.
 */
export async function openPdf(bytes: Uint8Array, options: OpenOptions = {}): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument(documentParameters(pdfjs, bytes, options));
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    throw classifyOpenError(err);
  }
}

/** What `openPdf` hands `pdfjs.getDocument` (exported for tests that open a PDF with another pdf.js the same way). */
export function documentParameters(pdfjs: Pick<PdfJs, "VerbosityLevel">, bytes: Uint8Array, options: OpenOptions = {}): Parameters<PdfJs["getDocument"]>[0] {
  return {
    data: bytes.slice(),
    password: options.password,
    disableFontFace: true,
    // Opened for extraction, a font the document does not embed is read as pdf.js reads it in a
    // browser: its text from its encoding, Unicode map and widths, with no stand-in font file
    // read from the package (a 140 KB Liberation TrueType, a Foxit Type 1), which only drawing
    // needs (Symbol and ZapfDingbats still read theirs). Nothing is loaded from the system.
    useSystemFonts: options.forText === true,
    useWorkerFetch: false,
    enableXfa: false,
    isImageDecoderSupported: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    standardFontDataUrl: join(pdfjsDir, "standard_fonts") + "/",
    cMapUrl: join(pdfjsDir, "cmaps") + "/",
    cMapPacked: true,
    BinaryDataFactory: PackageDataCache,
    ...(options.forText && patched ? { maxImageSize: 1 } : {}),
  };
}

/** Maps what pdf.js throws while opening a file to a document error with a code. */
export function classifyOpenError(err: unknown): DocumentError {
  const name = err instanceof Error ? err.name : "";
  const message = describeError(err);
  if (name === "PasswordException") {
    const incorrect = (err as { code?: number }).code === 2;
    return new DocumentError(
      "encrypted",
      incorrect ? "the password given is not correct" : "the document is encrypted and needs a password (`password` on the extract stage; `--password` for pagestream extract)",
      { cause: err },
    );
  }
  if (name === "InvalidPDFException") {
    return new DocumentError("damaged", `not a readable PDF (${message})`, { cause: err });
  }
  return new DocumentError("damaged", `the PDF could not be parsed: ${message}`, { cause: err });
}
