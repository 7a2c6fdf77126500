/** Small measures shared by the stages that read page geometry. */
import type { Line } from "../core/records.js";

/** The median of the values (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return 0;
  // The middle found by selection, not by sorting with a comparator called back for each pair:
  // the layout passes ask for thousands of medians a page. Sorted with (a, b) => a - b, NaN and
  // -0 fall wherever the sort leaves them (both compare equal to anything, or to 0): values
  // holding either are sorted as before, so the answer is that sort's to the bit.
  const copy: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (typeof v !== "number" || v !== v || (v === 0 && 1 / v < 0)) return middleOfSorted([...values].sort((a, b) => a - b));
    copy[i] = v;
  }
  const k = n >> 1;
  const middle = selectInPlace(copy, k);
  if (n % 2) return middle;
  // Selection leaves the k values below the middle before it: the largest of them is the other middle.
  let lower = -Infinity;
  for (let i = 0; i < k; i++) if (copy[i]! > lower) lower = copy[i]!;
  return (lower + middle) / 2;
}

function middleOfSorted(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The k-th smallest of the numbers (none NaN), from 0 (Hoare's selection): moves them so that
 * those before index k are no larger than it and those after no smaller.
 */
function selectInPlace(a: number[], k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/** Left to right: by x. */
export const leftToRight = (a: { x: number }, b: { x: number }): number => a.x - b.x;

/**
 * The items as a stable sort by `compare` leaves them: the list itself when it already stands
 * so, as most of a line's runs, a row's words and a cell's runs do (the layout passes order
 * thousands of lists a page, and a sort copies its list twice); a sorted copy otherwise.
 * `compare` must order items whose x and y are finite numbers consistently (a - b does); a list
 * holding any other x or y is sorted, as before.
 */
export function sortedIfNeeded<T extends { x: number; y: number }>(items: readonly T[], compare: (a: T, b: T) => number): readonly T[] {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (!Number.isFinite(item.x) || !Number.isFinite(item.y) || (i > 0 && compare(items[i - 1]!, item) > 0)) return [...items].sort(compare);
  }
  return items;
}

/** The items left to right (sortedIfNeeded), always in a list of their own: for a list that is kept, as a line keeps its runs. */
export function sortedByX<T extends { x: number; y: number }>(items: readonly T[]): T[] {
  const sorted = sortedIfNeeded(items, leftToRight);
  return sorted === items ? items.slice() : (sorted as T[]);
}

/**
 * The largest value (of `value` for each item): what `Math.max(...values)` gives, -Infinity for
 * none and NaN when one is NaN, in a loop. A spread puts every value on the call stack and throws
 * RangeError past about 120,000 of them: a 4,000-page document's lines, a page of loose glyphs.
 */
export function maxOf(values: readonly number[]): number;
export function maxOf<T>(items: readonly T[], value: (item: T) => number): number;
export function maxOf<T>(items: readonly T[], value?: (item: T) => number): number {
  let max = -Infinity;
  // An indexed loop: called with lists of every kind, a for-of here made an iterator result per item.
  for (let i = 0; i < items.length; i++) max = Math.max(max, value ? value(items[i]!) : (items[i] as number));
  return max;
}

/** The smallest value (of `value` for each item): `Math.min(...values)` in a loop (see maxOf). */
export function minOf(values: readonly number[]): number;
export function minOf<T>(items: readonly T[], value: (item: T) => number): number;
export function minOf<T>(items: readonly T[], value?: (item: T) => number): number {
  let min = Infinity;
  for (let i = 0; i < items.length; i++) min = Math.min(min, value ? value(items[i]!) : (items[i] as number));
  return min;
}

/**
 * Font sizes within this ratio are one size: producers round, and OCR layers vary a point from
 * line to line. A heading or a footnote differs by more (footnotes are ~20 % smaller).
 */
export const SAME_SIZE_RATIO = 1.12;

export function sameFontSize(a: number, b: number): boolean {
  return Math.max(a, b) <= SAME_SIZE_RATIO * Math.min(a, b);
}

/** Empty lines a code listing leaves at most inside itself: a wider gap ends the listing (programs seldom leave more; docs/extraction.md §5.9). */
export const MAX_BLANK_CODE_LINES = 2;

/**
 * The empty lines of a code listing between two lines `gap` apart, where its lines are `pitch`
 * apart: a gap of two or three pitches (within 0.15 of a whole number, baseline rounding) is one or
 * two blank lines of the program; 0 otherwise.
 */
export function blankCodeLines(gap: number, pitch: number): number {
  if (pitch <= 0) return 0;
  const steps = gap / pitch;
  const k = Math.round(steps);
  return k >= 2 && k <= MAX_BLANK_CODE_LINES + 1 && Math.abs(steps - k) < 0.15 ? k - 1 : 0;
}

/** The size most of a page's characters are set in: its body text. 0 for a page without lines. */
export function bodyFontSize(lines: readonly Line[]): number {
  // Keyed by tenths of a point: small integers hash faster than the sizes themselves.
  const weight = new Map<number, number>();
  for (const line of lines) {
    const tenths = Math.round(line.fontSize * 10);
    weight.set(tenths, (weight.get(tenths) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [tenths, w] of weight) {
    const size = tenths / 10;
    if (w > bestWeight || (w === bestWeight && size < best)) {
      best = size;
      bestWeight = w;
    }
  }
  return best;
}

/** Every run of the line that has letters or digits is set in bold (font-traits.ts): a bold heading, a bold label. */
export function isBoldLine(line: Line): boolean {
  let inked = false;
  for (const run of line.runs) {
    if (!/[\p{L}\p{N}]/u.test(run.text)) continue;
    if (!run.bold) return false;
    inked = true;
  }
  return inked;
}

/**
 * Set in capitals: three capital letters or more and none in lower case (text in a script
 * without case never is). Asked of every line of a document: a text that upper-casing changes
 * holds a lower-case letter, which rules out nearly every line at once.
 */
export function isCapitals(text: string): boolean {
  if (text !== text.toUpperCase() || text === text.toLowerCase()) return false;
  let capitals = 0;
  for (const ch of text) if (ch !== ch.toLowerCase() && ++capitals >= 3) return true;
  return false;
}
