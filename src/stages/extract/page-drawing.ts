/**
 * The straight lines a page draws (rulings.ts), read from pdf.js's operator list. That list
 * costs a part of the page's text content again (it parses the content stream a second time;
 * images are placed, never decoded: pdfjs-loader.ts `placeImagesOnly`), so extraction asks for
 * it only on pages where it can
 * change the text: a table found from the words alone, whose cells the rules may part; only
 * the tables are then found again (page-layout.ts withDrawnRules).
 * Annotations' appearances are left out: a form field's box is no table's rule.
 */
import type { PDFPageProxy } from "pdfjs-dist/types/src/display/api.js";
import { loadPdfJs } from "./pdfjs-loader.js";
import { drawnSegments, type Segment } from "./rulings.js";

export async function readDrawnSegments(page: PDFPageProxy): Promise<Segment[]> {
  const { OPS, AnnotationMode } = await loadPdfJs();
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  return drawnSegments(list.fnArray, list.argsArray, OPS);
}
