/**
 * The font size of OCR lines, from their word boxes (Tesseract gives boxes, not sizes). The
 * paragraph rules compare sizes (a heading, a footnote), so lines set in one size must come out
 * with exactly one size, and lines in another with another.
 *
 * Per line, the height of its words that reach the ascender line and rest on the baseline
 * ("Work", "the", "Licensor") is the steadiest measure: on Apache 2.0 scanned at 150 dpi it was
 * 33–34 px on every 10 pt line and 27–28 px on every 9 pt line, where x-height words varied
 * 19–22 px on both. Lines without such words use the x-height words (scaled by the page's own
 * ratio between the two), then words with descenders.
 *
 * Tesseract sometimes gives words the height of their whole line (on that scan, one line had
 * nine words 68 px tall and "a", "or" 21 px): a line whose ascender words are much taller than
 * its x-height words imply is measured by the x-height words.
 *
 * Lines are then grouped by size: sorted by size, a line less than SIZE_STEP bigger than the one
 * before joins its group, and each group gets its lines' median (by characters), so measuring
 * jitter never shows as a change of size.
 */
import { median } from "../../text/text-geometry.js";
import { letterClass, type LetterClass } from "./letter-heights.js";

export interface SizedWord {
  text: string;
  /** Box height, in any unit (the result is in the same unit). */
  height: number;
}

/** Shares of an em: capitals and ascenders above the baseline, a descender below it. */
export const ASCENDER_EM = 0.73;
const DESCENDER_EM = 0.21;
/** x-height letters above the baseline (Helvetica-like 0.52–0.54; Times, Computer Modern ~0.45). */
export const X_HEIGHT_EM = 0.53;
/** The ascender height over the x-height, for a page without a line that shows both. */
const DEFAULT_ASCENDER_TO_X = 1.45;
/** Ascender boxes this much taller than the x-height words imply are drawn too tall. */
const INFLATED = 1.25;
/**
 * Sizes closer than this ratio to the next smaller one are one size. Same-size lines measure
 * within ±3 % of each other, sorted neighbours far closer; 9 and 10 pt lines are 11 % apart.
 */
const SIZE_STEP = 1.04;

interface LineHeights {
  ascending?: number;
  xHeight?: number;
  any: number;
  chars: number;
}

/** The em of each line (its font size), in the unit of the heights. */
export function lineSizes(lines: readonly (readonly SizedWord[])[]): number[] {
  const measured = lines.map(measure);
  const ratios = measured.filter((m) => m.ascending && m.xHeight).map((m) => m.ascending! / m.xHeight!);
  const ascenderToX = median(ratios) || DEFAULT_ASCENDER_TO_X;
  const ems = measured.map((m) => emOf(m, ascenderToX));
  return groupSizes(ems, measured.map((m) => m.chars));
}

function measure(line: readonly SizedWord[]): LineHeights {
  const of = (kind: LetterClass) => lowQuantile(line.filter((w) => letterClass(w.text) === kind && w.height > 0).map((w) => w.height));
  return { ascending: of("ascending"), xHeight: of("x-height"), any: median(line.map((w) => w.height)), chars: line.reduce((n, w) => n + w.text.length, 0) };
}

/**
 * A box is never smaller than its letters, but a speck of dirt next to a word makes it taller
 * (a scanned header: "Kestrel" 53 px and "Harbour" 45 px among words 27–28 px): the lower
 * quartile of a line's boxes is what its letters say.
 */
function lowQuantile(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * 0.25)];
}

function emOf(m: LineHeights, ascenderToX: number): number {
  const fromX = m.xHeight ? m.xHeight * ascenderToX : undefined;
  let ascender = m.ascending;
  if (ascender && fromX && ascender > INFLATED * fromX) ascender = fromX;
  // A line of words with descenders only: its box spans ascender to descender, about 0.94 em.
  ascender ??= fromX ?? (m.any * ASCENDER_EM) / (ASCENDER_EM + DESCENDER_EM);
  return ascender / ASCENDER_EM;
}

function groupSizes(ems: readonly number[], weights: readonly number[]): number[] {
  const order = ems.map((em, i) => i).sort((a, b) => ems[a]! - ems[b]!);
  const out = new Array<number>(ems.length).fill(0);
  for (let k = 0; k < order.length; ) {
    let end = k + 1;
    while (end < order.length && ems[order[end]!]! < ems[order[end - 1]!]! * SIZE_STEP) end++;
    const group = order.slice(k, end);
    const size = weightedMedian(group.map((i) => ({ value: ems[i]!, weight: weights[i]! })));
    for (const i of group) out[i] = size;
    k = end;
  }
  return out;
}

function weightedMedian(items: readonly { value: number; weight: number }[]): number {
  const sorted = [...items].sort((a, b) => a.value - b.value);
  const total = sorted.reduce((n, i) => n + Math.max(1, i.weight), 0);
  let seen = 0;
  for (const i of sorted) {
    seen += Math.max(1, i.weight);
    if (seen * 2 >= total) return i.value;
  }
  return sorted[0]?.value ?? 0;
}
