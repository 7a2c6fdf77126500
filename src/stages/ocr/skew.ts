/**
 * The tilt of a scanned page, from its words: on a page scanned a degree or two askew, the word
 * boxes of each line step up or down along a slope. Per line, the least-squares slope of the
 * bottoms of its words that rest on the baseline (no descenders); the page's tilt is the median
 * over lines, each counted by its length. Boxes are then turned back around the page centre.
 */
import { restsOnBaseline } from "./letter-heights.js";

export interface WordBox {
  text: string;
  /** Left and right edges, bottom and top, in points, y up. */
  x0: number;
  x1: number;
  bottom: number;
  top: number;
}

/** Lines shorter than this share of the page width say little about the tilt. */
const MIN_LINE_SHARE = 0.2;

/** The tilt in radians, counter-clockwise; 0 when no line is long enough to tell. */
export function skewOf(lines: readonly (readonly WordBox[])[], pageWidth: number): number {
  const slopes: { slope: number; weight: number }[] = [];
  for (const line of lines) {
    const points = line.filter((b) => restsOnBaseline(b.text)).map((b) => ({ x: (b.x0 + b.x1) / 2, y: b.bottom }));
    if (points.length < 3) continue;
    const span = Math.max(...points.map((p) => p.x)) - Math.min(...points.map((p) => p.x));
    if (span < MIN_LINE_SHARE * pageWidth) continue;
    const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
    const my = points.reduce((s, p) => s + p.y, 0) / points.length;
    const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
    if (sxx > 0) slopes.push({ slope: sxy / sxx, weight: span });
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a.slope - b.slope);
  const total = slopes.reduce((s, l) => s + l.weight, 0);
  let seen = 0;
  for (const { slope, weight } of slopes) {
    seen += weight;
    if (seen * 2 >= total) return Math.atan(slope);
  }
  return 0;
}

/** A point turned by -angle around (cx, cy): what was on a line of that tilt through the centre comes out level. */
export function unrotate(x: number, y: number, angle: number, cx: number, cy: number): { x: number; y: number } {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { x: cx + (x - cx) * cos + (y - cy) * sin, y: cy - (x - cx) * sin + (y - cy) * cos };
}
