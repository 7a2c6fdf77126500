/**
 * What OCR needs from the machine, checked before any document: Tesseract 5 on PATH, a language
 * pack for every language asked for, and a renderer. Each problem is said with the Debian
 * package that fixes it, all of them at once, so that `pagestream validate` and a run stop
 * with a sentence to act on instead of a night of empty pages.
 */
import { findExecutable } from "./child-process.js";
import { canvasInstalled, pdfjsRenderer } from "./pdfjs-renderer.js";
import type { Renderer, RendererName } from "./page-renderer.js";
import { pdftoppmRenderer } from "./pdftoppm-renderer.js";
import { installedLanguages, tesseractVersion } from "./tesseract.js";

/** Which renderer `auto` tries first: the faster one in `bench/ocr.mjs` on this machine. */
export const RENDERER_PREFERENCE: readonly RendererName[] = ["pdftoppm", "pdfjs"];

/** Tesseract major versions whose TSV and options this stage is written against. */
const MIN_TESSERACT_MAJOR = 5;

export interface OcrEnvironment {
  tesseract: string;
  version: string;
  renderer: Renderer;
}

export interface EnvironmentRequest {
  languages: readonly string[];
  renderer: RendererName | "auto";
}

/** The Debian package that holds a Tesseract language pack: `chi_sim` → tesseract-ocr-chi-sim. */
export function languagePackage(language: string): string {
  return `tesseract-ocr-${language.toLowerCase().replaceAll("_", "-")}`;
}

/** Checks the machine; throws an Error listing every problem and what to install. */
export async function checkOcrEnvironment(request: EnvironmentRequest): Promise<OcrEnvironment> {
  const problems: string[] = [];
  const renderer = chooseRenderer(request.renderer, problems);
  const tesseract = findExecutable("tesseract");
  let version = "";
  if (!tesseract) {
    problems.push("Tesseract is not installed (no `tesseract` on PATH): install the Debian package tesseract-ocr (`apt-get install -y tesseract-ocr`)");
  } else {
    // Both at once: each starts Tesseract, which takes a few tenths of a second to load, and the
    // run checks once in the main process and once in every worker.
    const [found, installed] = await Promise.all([tesseractVersion(tesseract), installedLanguages(tesseract)]);
    version = found;
    const major = Number(version.split(".")[0]);
    if (!(major >= MIN_TESSERACT_MAJOR)) problems.push(`${tesseract} is Tesseract ${version}; OCR needs Tesseract ${MIN_TESSERACT_MAJOR} or later (Debian 12's tesseract-ocr is 5.3)`);
    const missing = request.languages.filter((l) => !installed.has(l));
    if (missing.length) {
      const packages = missing.map(languagePackage);
      const where = process.env.TESSDATA_PREFIX ? ` in TESSDATA_PREFIX (${process.env.TESSDATA_PREFIX})` : "";
      problems.push(
        `the Tesseract language pack${missing.length > 1 ? "s" : ""} for ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not installed${where}: install the Debian package${packages.length > 1 ? "s" : ""} ${packages.join(", ")} (\`apt-get install -y ${packages.join(" ")}\`); installed: ${[...installed].sort().join(", ") || "none"}`,
      );
    }
  }
  if (problems.length) throw new Error(problems.join("; "));
  return { tesseract: tesseract!, version, renderer: renderer! };
}

function chooseRenderer(asked: RendererName | "auto", problems: string[]): Renderer | undefined {
  const order = asked === "auto" ? RENDERER_PREFERENCE : [asked];
  for (const name of order) {
    const renderer = available(name);
    if (renderer) return renderer;
  }
  if (asked === "auto") {
    problems.push("no renderer for OCR: install the Debian package poppler-utils (`apt-get install -y poppler-utils`) for pdftoppm, or the npm package @napi-rs/canvas (pdfjs-dist's optional dependency: do not install with --omit=optional)");
  } else if (asked === "pdftoppm") {
    problems.push("renderer pdftoppm is not installed (no `pdftoppm` on PATH): install the Debian package poppler-utils (`apt-get install -y poppler-utils`), or set `renderer: auto`");
  } else {
    problems.push("renderer pdfjs needs the npm package @napi-rs/canvas, pdfjs-dist's optional dependency (reinstall without --omit=optional), or set `renderer: auto`");
  }
  return undefined;
}

function available(name: RendererName): Renderer | undefined {
  if (name === "pdfjs") return canvasInstalled() ? pdfjsRenderer : undefined;
  const pdftoppm = findExecutable("pdftoppm");
  return pdftoppm ? pdftoppmRenderer(pdftoppm) : undefined;
}
