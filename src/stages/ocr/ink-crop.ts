/**
 * A page image cut down to where its ink is, for Tesseract: the white margins of a page are a
 * quarter to a third of its pixels, and Tesseract thresholds and segments every one of them
 * (on two scanned licences at 300 dpi, cropping saved 7–15 % of its time per page). Specks in the
 * margin do not count as ink: a row or column needs a few dark pixels. The words' boxes are put
 * back into the page's own pixels with the offset.
 */
import type { PixelBox } from "./bmp.js";
import { pixelsOf, type PageImage } from "./pgm.js";

/** Grey levels below this are ink. */
const DARK = 128;
/** Dark pixels a row or a column needs to hold ink (a speck of dust has one or two). */
const MIN_DARK = 3;
/** White kept around the ink, as a share of the page's width (Tesseract wants a little border). */
const MARGIN_SHARE = 0.02;
/** Columns read side by side when looking for the left and right edges of the ink. */
const BAND = 64;
/** A crop that keeps more than this share of the pixels is not worth it: the page is read whole. */
const WORTH_IT = 0.9;

/** The part of the page to read: its ink and a small border, or the whole page. */
export function inkBox(page: PageImage): PixelBox {
  const { width, height } = page;
  const whole = { left: 0, top: 0, width, height };
  const pixels = pixelsOf(page);
  // Each edge is found by walking in from it and stopping at the first row or column with ink,
  // so only the margins are read, not the whole page. Columns are read in bands a cache line or
  // so wide, row after row: one column at a time would touch a new cache line for every pixel.
  const rowHasInk = (y: number): boolean => {
    let dark = 0;
    for (let i = y * width, end = i + width; i < end; i++) if (pixels[i]! < DARK && ++dark >= MIN_DARK) return true;
    return false;
  };
  const counts = new Uint32Array(BAND);
  /** The first column with ink walking from `start` by `step` (±1), or -1. */
  const firstInkColumn = (start: number, step: 1 | -1): number => {
    for (let near = start; near >= 0 && near < width; near += step * BAND) {
      const far = Math.max(-1, Math.min(width, near + step * BAND));
      const x0 = Math.min(near, far - step);
      const x1 = Math.max(near, far - step) + 1;
      counts.fill(0);
      for (let row = 0; row < width * height; row += width) for (let x = x0; x < x1; x++) if (pixels[row + x]! < DARK) counts[x - x0]!++;
      for (let x = near; x !== far; x += step) if (counts[x - x0]! >= MIN_DARK) return x;
    }
    return -1;
  };
  let top = 0;
  while (top < height && !rowHasInk(top)) top++;
  if (top >= height) return whole;
  let bottom = height - 1;
  while (bottom > top && !rowHasInk(bottom)) bottom--;
  const left = firstInkColumn(0, 1);
  if (left < 0) return whole;
  const right = firstInkColumn(width - 1, -1);
  const margin = Math.round(MARGIN_SHARE * width);
  const x0 = Math.max(0, left - margin);
  const y0 = Math.max(0, top - margin);
  const x1 = Math.min(width, right + 1 + margin);
  const y1 = Math.min(height, bottom + 1 + margin);
  const box = { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
  return box.width * box.height > WORTH_IT * width * height ? whole : box;
}
