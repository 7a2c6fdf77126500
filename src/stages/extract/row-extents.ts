/**
 * A table row indexed for the questions column finding asks of a strip of white
 * (table-columns.ts): which word ends last before the strip, which starts first after it,
 * whether a word crosses it, whether one of the row's spans holds it. A table has about as many
 * candidate strips as words, and a pass over every row's words for each strip made finding a
 * table's columns quadratic in its words (issue 33: a one-page bulletin of small tables took 13×
 * raw pdf.js's time). Each question is a binary search here, answered exactly as the pass did:
 * the same word (the first in the row's order among equals), the same comparisons.
 */
import type { TextRun } from "../../core/records.js";

export interface Interval {
  x0: number;
  x1: number;
}

/** The first index in [0, n) for which `past` holds (it holds from some index on), or n. */
export function firstIndex(n: number, past: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (past(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A row's words, sorted once by where they start and by where they end. */
export class RowWords {
  /** Word indices by start (ties in row order), their starts, and the furthest end among them so far. */
  private readonly byStart: Int32Array;
  private readonly starts: Float64Array;
  private readonly reach: Float64Array;
  /** Word indices by end (ties in reverse row order, so the last of equals is the first in the row), their ends. */
  private readonly byEnd: Int32Array;
  private readonly ends: Float64Array;
  /** A coordinate that is not a number has no place in a sorted order: such a row is asked word by word. */
  private readonly unordered: boolean;

  constructor(readonly words: readonly TextRun[]) {
    const n = words.length;
    const start = new Float64Array(n);
    const end = new Float64Array(n);
    let unordered = false;
    for (let k = 0; k < n; k++) {
      const w = words[k]!;
      start[k] = w.x;
      end[k] = w.x + w.width;
      if (Number.isNaN(start[k]) || Number.isNaN(end[k])) unordered = true;
    }
    this.unordered = unordered;
    // Plain arrays: V8 sorts them with a comparator far faster than typed arrays.
    const order = Array.from({ length: n }, (_, k) => k);
    this.byStart = Int32Array.from(order.sort((a, b) => start[a]! - start[b]! || a - b));
    this.byEnd = Int32Array.from(order.sort((a, b) => end[a]! - end[b]! || b - a));
    this.starts = Float64Array.from(this.byStart, (k) => start[k]!);
    this.ends = Float64Array.from(this.byEnd, (k) => end[k]!);
    this.reach = new Float64Array(n);
    let reach = -Infinity;
    for (let k = 0; k < n; k++) this.reach[k] = reach = Math.max(reach, end[this.byStart[k]!]!);
  }

  /** Whether a word ends at or before `x`. */
  endsBy(x: number): boolean {
    if (this.unordered) return this.words.some((w) => w.x + w.width <= x);
    return this.ends.length > 0 && this.ends[0]! <= x;
  }

  /** Whether a word starts at or after `x`. */
  startsFrom(x: number): boolean {
    if (this.unordered) return this.words.some((w) => w.x >= x);
    return this.starts.length > 0 && this.starts[this.starts.length - 1]! >= x;
  }

  /** The word that ends last at or before `x` (the first in the row among those ending there). */
  lastEndingBy(x: number): TextRun | undefined {
    if (this.unordered) return this.words.filter((w) => w.x + w.width <= x).sort((a, b) => b.x + b.width - (a.x + a.width))[0];
    const k = firstIndex(this.ends.length, (i) => !(this.ends[i]! <= x)) - 1;
    return k >= 0 ? this.words[this.byEnd[k]!] : undefined;
  }

  /** The word that starts first at or after `x` (the first in the row among those starting there). */
  firstStartingFrom(x: number): TextRun | undefined {
    if (this.unordered) return this.words.filter((w) => w.x >= x).sort((a, b) => a.x - b.x)[0];
    const k = firstIndex(this.starts.length, (i) => this.starts[i]! >= x);
    return k < this.starts.length ? this.words[this.byStart[k]!] : undefined;
  }

  /** Whether a word starts before `x1` and ends after `x0`. */
  crosses(x0: number, x1: number): boolean {
    if (this.unordered) return this.words.some((w) => w.x < x1 && w.x + w.width > x0);
    const k = firstIndex(this.starts.length, (i) => !(this.starts[i]! < x1));
    return k > 0 && this.reach[k - 1]! > x0;
  }
}

/**
 * A row's spans (its words' extents merged, or its phrases): left to right, each starting
 * after the one before ends, so at most one of them can reach into a strip from the left.
 */
export class RowSpans {
  private readonly x0s: Float64Array;
  /** Spans that overlap or run backwards (not made by rowSpans or phraseSpans) are asked one by one. */
  private readonly unordered: boolean;

  constructor(readonly spans: readonly Interval[]) {
    this.x0s = Float64Array.from(spans, (s) => s.x0);
    this.unordered = spans.some((s, k) => !(s.x0 <= s.x1) || (k > 0 && !(s.x0 > spans[k - 1]!.x1)));
  }

  /** The last span starting before `x`, if any: the only one that may reach past `x` from the left. */
  private lastStartingBefore(x: number): Interval | undefined {
    const k = firstIndex(this.x0s.length, (i) => !(this.x0s[i]! < x)) - 1;
    return k >= 0 ? this.spans[k] : undefined;
  }

  /** Whether every span that overlaps `g` covers it whole (none overlapping it, too). */
  coversWholeOrMisses(g: Interval): boolean {
    if (this.unordered) return this.spans.every((s) => !(s.x0 < g.x1 && g.x0 < s.x1) || (s.x0 <= g.x0 && s.x1 >= g.x1));
    const s = this.lastStartingBefore(g.x1);
    return !s || !(g.x0 < s.x1) || (s.x0 <= g.x0 && s.x1 >= g.x1);
  }

  /** Whether a span starts before `g` and ends after it. */
  holds(g: Interval): boolean {
    if (this.unordered || !(g.x0 < g.x1)) return this.spans.some((s) => s.x0 < g.x0 && s.x1 > g.x1);
    const s = this.lastStartingBefore(g.x0);
    return s !== undefined && s.x1 > g.x1;
  }
}
