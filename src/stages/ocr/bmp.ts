/**
 * The page image as Tesseract is given it: an 8-bit grey BMP (a palette of the 256 greys, rows
 * bottom up, each padded to 4 bytes), written straight from the part of the rendered page that
 * is kept (ink-crop.ts).
 *
 * Not the PGM the renderers produce: Leptonica 1.82 (Debian 12's, under Tesseract 5.3) reads a
 * PGM a byte at a time through a stream, a BMP row by row from memory. On a cropped 300 dpi page
 * from stdin that is 8 % of all of Tesseract's instructions (valgrind: 16.90 → 15.57 billion,
 * the same TSV on every page of the OCR corpus).
 */
import { pixelsOf, type PageImage } from "./pgm.js";

/** A rectangle of a page image, in its pixels. */
export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

const FILE_HEADER = 14;
const INFO_HEADER = 40;
const PALETTE = 256 * 4;

/** The `box` of `page` as an 8-bit grey BMP file, marked with `dpi` (Tesseract is told it on its command line too). */
export function greyBmp(page: PageImage, box: PixelBox, dpi: number): Buffer {
  const { left, top, width, height } = box;
  const pixels = pixelsOf(page);
  const stride = (width + 3) & ~3;
  const start = FILE_HEADER + INFO_HEADER + PALETTE;
  const bmp = Buffer.alloc(start + stride * height);
  const pixelsPerMetre = Math.round(dpi / 0.0254);
  bmp.write("BM", 0, "latin1");
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(start, 10);
  bmp.writeUInt32LE(INFO_HEADER, 14);
  bmp.writeInt32LE(width, 18);
  bmp.writeInt32LE(height, 22); // positive: bottom-up rows, which every reader takes
  bmp.writeUInt16LE(1, 26); // planes
  bmp.writeUInt16LE(8, 28); // bits per pixel
  bmp.writeUInt32LE(stride * height, 34); // compression 0 (none) at 30 is already zero
  bmp.writeInt32LE(pixelsPerMetre, 38);
  bmp.writeInt32LE(pixelsPerMetre, 42);
  bmp.writeUInt32LE(256, 46);
  for (let grey = 0; grey < 256; grey++) bmp.fill(grey, FILE_HEADER + INFO_HEADER + grey * 4, FILE_HEADER + INFO_HEADER + grey * 4 + 3);
  for (let y = 0; y < height; y++) {
    const from = (top + y) * page.width + left;
    bmp.set(pixels.subarray(from, from + width), start + (height - 1 - y) * stride);
  }
  return bmp;
}
