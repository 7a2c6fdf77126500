/**
 * The straight lines a page draws (rulings.ts). Extraction asks for them only on pages where
 * they can change the text: a table found from the words alone, whose cells the rules may part;
 * only the tables are then found again (page-layout.ts PageReading).
 *
 * pagestream's pdf.js records the paths a page paints while it reads the page's text
 * (scripts/pdfjs-patches.mjs, patch 6), and they come out of the text content as items of their
 * own, which `separatePaintedPaths` takes out. Published pdf.js (tests of the TypeScript source
 * before a build) records none: there the operator list gives the same paths, at the cost of
 * parsing the page a second time (its images placed, never decoded: pdfjs-loader.ts
 * `forText`). Annotations' appearances are in neither: a form field's box is no table's rule.
 */
import type { PDFPageProxy } from "pdfjs-dist/types/src/display/api.js";
import { loadPdfJs, recordsPaintedPaths } from "./pdfjs-loader.js";
import { drawnSegments, paintedSegments, type PaintedPath, type Segment } from "./rulings.js";

interface PaintedPathItem extends PaintedPath {
  type: "paintedPath";
}

/** A page's text content items without its painted paths, and the paths. */
export function separatePaintedPaths<T extends object>(items: readonly T[]): { items: T[]; paths: PaintedPath[] } {
  const rest: T[] = [];
  const paths: PaintedPath[] = [];
  for (const item of items) {
    if ((item as Partial<PaintedPathItem>).type === "paintedPath") paths.push(item as unknown as PaintedPath);
    else rest.push(item);
  }
  return { items: rest, paths };
}

/** The segments the page draws: from the paths its text pass recorded, or from its operator list where pdf.js records none. */
export async function readDrawnSegments(page: PDFPageProxy, paths: readonly PaintedPath[]): Promise<Segment[]> {
  const { OPS, AnnotationMode } = await loadPdfJs();
  if (recordsPaintedPaths()) return paintedSegments(paths, OPS);
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  return drawnSegments(list.fnArray, list.argsArray, OPS);
}
