/**
 * Boxes on a page as it is displayed: PDF points from the top-left corner of the page, its
 * /Rotate applied, as pdfplumber and `pdftotext -bbox` give them. A page's lines and runs keep
 * the frame their text is read in (x to the right along the text, y up; turned with the text on a
 * page printed sideways, text-runs.ts); the page record's `toDisplay` maps that frame onto the
 * displayed page, so every view draws its boxes from the same coordinates.
 */

import type { PageBox } from "../core/records.js";

/** An affine map as PDF writes it, [a, b, c, d, e, f]: (x, y) → (a·x + c·y + e, b·x + d·y + f). */
export type DisplayMatrix = [number, number, number, number, number, number];

export type { PageBox };

/** An extent in the frame a page's text is read in: x0 < x1, bottom < top (y up). */
export type FrameExtent = [x0: number, bottom: number, x1: number, top: number];

/** A glyph's box reaches this far (ems) under its baseline and over it: the usual descender and ascender of text faces. */
const DESCENT_EMS = 0.2;
const ASCENT_EMS = 0.8;

/** The extent of runs' glyphs (their advance across, a font's height from under the baseline up), or undefined for none. */
export function runsExtent(runs: readonly { x: number; y: number; width: number; fontSize: number }[]): FrameExtent | undefined {
  if (runs.length === 0) return undefined;
  let x0 = Infinity;
  let x1 = -Infinity;
  let bottom = Infinity;
  let top = -Infinity;
  for (const r of runs) {
    x0 = Math.min(x0, r.x);
    x1 = Math.max(x1, r.x + r.width);
    bottom = Math.min(bottom, r.y - DESCENT_EMS * r.fontSize);
    top = Math.max(top, r.y + ASCENT_EMS * r.fontSize);
  }
  return [x0, bottom, x1, top];
}

/** The box on the displayed page that holds an extent of the text frame (its four corners mapped, rounded to hundredths of a point). */
export function displayBox(page: number, matrix: DisplayMatrix, [x0, bottom, x1, top]: FrameExtent): PageBox {
  const [a, b, c, d, e, f] = matrix;
  // Each coordinate is linear in x and in y: its least and greatest over the rectangle are at
  // the ends each term takes its least and greatest at.
  const ax = [a * x0, a * x1];
  const cy = [c * bottom, c * top];
  const bx = [b * x0, b * x1];
  const dy = [d * bottom, d * top];
  return {
    page,
    x0: round(Math.min(ax[0]!, ax[1]!) + Math.min(cy[0]!, cy[1]!) + e),
    y0: round(Math.min(bx[0]!, bx[1]!) + Math.min(dy[0]!, dy[1]!) + f),
    x1: round(Math.max(ax[0]!, ax[1]!) + Math.max(cy[0]!, cy[1]!) + e),
    y1: round(Math.max(bx[0]!, bx[1]!) + Math.max(dy[0]!, dy[1]!) + f),
  };
}

/**
 * The map from the text frame of a page read at `angle` (degrees counter-clockwise: its runs'
 * coordinates turned by it) to the displayed page, given pdf.js's viewport transform at scale 1
 * (user space to the displayed page, top-left origin, y down).
 */
export function textFrameToDisplay(viewport: readonly number[], angle: number): DisplayMatrix {
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  // The text frame back into user space: (x, y) → (x·cos − y·sin, x·sin + y·cos).
  const [va = 1, vb = 0, vc = 0, vd = 1, ve = 0, vf = 0] = viewport;
  return [va * cos + vc * sin, vb * cos + vd * sin, -va * sin + vc * cos, -vb * sin + vd * cos, ve, vf].map(clean) as DisplayMatrix;
}

/** A line's box on the displayed page: its runs' extent (or its own, without runs), mapped from its frame. */
export function lineBox(page: number, toDisplay: DisplayMatrix, line: LineGeometry): PageBox {
  const extent = runsExtent(line.runs ?? []) ?? runsExtent([line])!;
  return displayBox(page, line.turn ? textFrameToDisplay(toDisplay, line.turn) : toDisplay, extent);
}

/** What a line's box is made from. */
export interface LineGeometry {
  x: number;
  y: number;
  width: number;
  fontSize: number;
  runs?: readonly { x: number; y: number; width: number; fontSize: number }[];
  /** Degrees the line's frame is turned from the page's body frame (an off-axis line's). */
  turn?: number;
}

/** A line this many of its own heights under the one before (a paragraph gap, the space around a heading) is still the same column piece; a figure between leaves more. */
const PIECE_GAP_LINES = 6;

/**
 * Line boxes in reading order merged into as few rectangles as the layout allows: a line joins
 * the piece of the line before when it stands on the same page, below that line (or level with
 * it) within a few line heights, and overlaps it across. A new column, a block beside, a jump
 * back up the page start a new piece.
 */
export function mergeBoxes(boxes: readonly PageBox[]): PageBox[] {
  const out: PageBox[] = [];
  let last: PageBox | undefined;
  for (const box of boxes) {
    const piece = out[out.length - 1];
    const height = last ? last.y1 - last.y0 : 0;
    const joins =
      piece !== undefined &&
      last !== undefined &&
      last.page === box.page &&
      box.y0 >= last.y0 - 0.5 * height &&
      box.y0 - last.y1 <= PIECE_GAP_LINES * height &&
      Math.min(box.x1, last.x1) > Math.max(box.x0, last.x0);
    if (joins) Object.assign(piece, { x0: Math.min(piece.x0, box.x0), y0: Math.min(piece.y0, box.y0), x1: Math.max(piece.x1, box.x1), y1: Math.max(piece.y1, box.y1) });
    else out.push({ ...box });
    last = box;
  }
  return out;
}

/** The map for words whose coordinates are the displayed page's with y up from its bottom edge (an OCR engine's, scaled to points). */
export function bottomUpToDisplay(height: number): DisplayMatrix {
  return [1, 0, 0, -1, 0, height];
}

function round(v: number): number {
  return Math.round(v * 100) / 100 || 0;
}

/** Cosines and sines of right angles come out a hair off zero and one. */
function clean(v: number): number {
  const r = Math.round(v);
  return Math.abs(v - r) < 1e-9 ? r || 0 : v;
}
