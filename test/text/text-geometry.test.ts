import { describe, expect, it } from "vitest";
import { leftToRight, median, sortedByX, sortedIfNeeded } from "../../src/text/text-geometry.js";

/** The median as it was first worked out: the values sorted with a comparator, the middle (or the mean of the two middle) taken. */
function sortedMedian(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

describe("median", () => {
  it("is the comparator sort's middle, to the bit, over many lists of font sizes and gaps, duplicates and all", () => {
    const next = random(33);
    for (let trial = 0; trial < 3000; trial++) {
      const n = Math.floor(next() * 60);
      // Few distinct values (font sizes repeat), or many (gaps between words), negative ones too.
      const spread = next() < 0.5 ? 4 : 1000;
      const values = Array.from({ length: n }, () => Math.round((next() - 0.2) * spread * 4) / 4);
      expect(Object.is(median(values), sortedMedian(values)), `${JSON.stringify(values)}`).toBe(true);
    }
  });

  it("leaves the values it is given as they were", () => {
    const values = [5, 1, 4, 2, 3, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 4, 2, 3, 3]);
  });

  it("answers as the comparator sort does where NaN, -0 or infinities stand among the values", () => {
    const lists = [[], [NaN], [3, NaN, 1], [NaN, 2, 1, 0], [-0, 0], [0, -0], [0, -0, 1], [-0, 1], [-Infinity, 2, Infinity], [Infinity, -Infinity], [1, -0, -0, 0]];
    for (const values of lists) expect(Object.is(median(values), sortedMedian(values)), `${values.map(String)}`).toBe(true);
  });

  it("finds the middle of long lists of one value repeated, and of lists already in order or in reverse", () => {
    for (const values of [Array(5001).fill(9.5), Array.from({ length: 4000 }, (_, i) => i), Array.from({ length: 4001 }, (_, i) => 4001 - i)]) {
      expect(median(values)).toBe(sortedMedian(values));
    }
  });
});

describe("sortedIfNeeded and sortedByX", () => {
  const topDownLeftToRight = (a: { x: number; y: number }, b: { x: number; y: number }) => b.y - a.y || a.x - b.x;

  it("give what a stable sort gives, for lists in order, out of order, with ties, NaN and infinities", () => {
    const next = random(7);
    const specials = [NaN, Infinity, -Infinity, -0, 0];
    const value = () => (next() < 0.05 ? specials[Math.floor(next() * specials.length)]! : Math.round(next() * 8));
    for (let trial = 0; trial < 2000; trial++) {
      const n = Math.floor(next() * 12);
      const items = Array.from({ length: n }, (_, id) => ({ id, x: value(), y: value() }));
      const compare = trial % 2 ? leftToRight : topDownLeftToRight;
      if (next() < 0.5) items.sort(compare);
      const expected = [...items].sort(compare).map((i) => i.id);
      const kept = sortedIfNeeded(items, compare);
      expect(kept.map((i) => i.id)).toEqual(expected);
      if (trial % 2) {
        const copied = sortedByX(items);
        expect(copied).not.toBe(items);
        expect(copied.map((i) => i.id)).toEqual(expected);
      }
    }
  });

  it("hand back a list already in order as it is, not copied (sortedByX copies it)", () => {
    const items = [{ x: 1, y: 9 }, { x: 2, y: 9 }, { x: 2, y: 3 }];
    expect(sortedIfNeeded(items, leftToRight)).toBe(items);
    expect(sortedIfNeeded(items, topDownLeftToRight)).toBe(items);
    expect(sortedByX(items)).not.toBe(items);
    expect(sortedByX(items)).toEqual(items);
  });
});
