/**
 * A second look at a page's drawing operations, for what its text content does not say: whether
 * it paints images (a page with no text and an image is a scan; with neither, it is blank), and
 * whether its text is drawn invisibly (render mode 3, an OCR layer over a scanned image).
 * `getOperatorList` parses the content stream again (its images are placed, never decoded, in
 * a document extraction opens: pdfjs-loader.ts `forText`), so extraction asks only
 * about pages with little text or with the signature of an OCR layer.
 */
import type { PDFPageProxy } from "pdfjs-dist/types/src/display/api.js";
import { loadPdfJs } from "./pdfjs-loader.js";

export interface PageProbe {
  images: number;
  invisibleText: boolean;
}

const INVISIBLE_MODES = new Set([3, 7]);

export async function probePage(page: PDFPageProxy): Promise<PageProbe> {
  const { OPS } = await loadPdfJs();
  const textOps = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
  ]);
  const list = await page.getOperatorList();
  let mode = 0;
  const saved: number[] = [];
  let visible = 0;
  let invisible = 0;
  let images = 0;
  list.fnArray.forEach((fn, i) => {
    if (fn === OPS.save) saved.push(mode);
    else if (fn === OPS.restore) mode = saved.pop() ?? 0;
    else if (fn === OPS.setTextRenderingMode) mode = Number((list.argsArray[i] as unknown[])[0]);
    else if (textOps.has(fn)) INVISIBLE_MODES.has(mode) ? invisible++ : visible++;
    else if (imageOps.has(fn)) images++;
  });
  return { images, invisibleText: invisible > 0 && visible === 0 };
}
