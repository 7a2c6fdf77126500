import { describe, expect, it } from "vitest";
import { median, sortedByX } from "../../src/text/text-geometry.js";

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

describe("sortedByX", () => {
  it("gives what a stable sort by x gives, in a new list, for lists in order, out of order, with ties, NaN and infinities", () => {
    const next = random(7);
    const specials = [NaN, Infinity, -Infinity, -0, 0];
    for (let trial = 0; trial < 2000; trial++) {
      const n = Math.floor(next() * 12);
      const items = Array.from({ length: n }, (_, id) => ({ id, x: next() < 0.05 ? specials[Math.floor(next() * specials.length)]! : Math.round(next() * 8) }));
      if (next() < 0.5) items.sort((a, b) => a.x - b.x);
      const got = sortedByX(items);
      expect(got).not.toBe(items);
      expect(got.map((i) => i.id)).toEqual([...items].sort((a, b) => a.x - b.x).map((i) => i.id));
    }
  });
});

