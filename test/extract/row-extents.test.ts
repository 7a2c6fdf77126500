import { describe, expect, it } from "vitest";
import type { TextRun } from "../../src/core/records.js";
import { RowSpans, RowWords, type Interval } from "../../src/stages/extract/row-extents.js";
import { run } from "../helpers/runs.js";

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A row of words on a coarse grid, so that many start or end at one place (ties pick by row order). */
function randomRow(next: () => number): TextRun[] {
  return Array.from({ length: 1 + Math.floor(next() * 12) }, (_, k) => run(`w${k}`, Math.floor(next() * 40) * 2.5, 700, 10, Math.floor(next() * 10) * 2.5));
}

/** Places to ask about: on the grid (level with words' ends) and between. */
const places = Array.from({ length: 90 }, (_, k) => k * 1.25 - 5);

// What the table code asked of a row with a pass over its words before the index (table-columns.ts).
const naive = {
  lastEndingBy: (row: readonly TextRun[], x: number) => row.filter((w) => w.x + w.width <= x).sort((a, b) => b.x + b.width - (a.x + a.width))[0],
  firstStartingFrom: (row: readonly TextRun[], x: number) => row.filter((w) => w.x >= x).sort((a, b) => a.x - b.x)[0],
  crosses: (row: readonly TextRun[], x0: number, x1: number) => row.some((w) => w.x < x1 && w.x + w.width > x0),
  coversWholeOrMisses: (spans: readonly Interval[], g: Interval) => spans.every((s) => !(s.x0 < g.x1 && g.x0 < s.x1) || (s.x0 <= g.x0 && s.x1 >= g.x1)),
  holds: (spans: readonly Interval[], g: Interval) => spans.some((s) => s.x0 < g.x0 && s.x1 > g.x1),
};

/** A row's words merged into spans, as table-columns.ts's rowSpans makes them. */
function merged(row: readonly TextRun[]): Interval[] {
  const out: Interval[] = [];
  for (const w of [...row].sort((a, b) => a.x - b.x)) {
    const last = out[out.length - 1];
    if (last && w.x <= last.x1) last.x1 = Math.max(last.x1, w.x + w.width);
    else out.push({ x0: w.x, x1: w.x + w.width });
  }
  return out;
}

describe("a row's words indexed for strip questions", () => {
  it("answers as a pass over the row's words does, the same word among equals", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const row = randomRow(random(seed));
      const index = new RowWords(row);
      for (const x of places) {
        expect(index.lastEndingBy(x), `seed ${seed} lastEndingBy(${x})`).toBe(naive.lastEndingBy(row, x));
        expect(index.firstStartingFrom(x), `seed ${seed} firstStartingFrom(${x})`).toBe(naive.firstStartingFrom(row, x));
        expect(index.endsBy(x)).toBe(row.some((w) => w.x + w.width <= x));
        expect(index.startsFrom(x)).toBe(row.some((w) => w.x >= x));
        for (const width of [0.5, 2.5, 7.5]) expect(index.crosses(x, x + width), `seed ${seed} crosses(${x}, ${x + width})`).toBe(naive.crosses(row, x, x + width));
      }
    }
  });

  it("picks the first word of the row among words ending or starting at one place", () => {
    const row = [run("b", 0, 700, 10, 20), run("a", 10, 700, 10, 10), run("c", 10, 700, 10, 10)];
    const index = new RowWords(row);
    expect(index.lastEndingBy(25)?.text).toBe("b");
    expect(index.firstStartingFrom(5)?.text).toBe("a");
  });

  it("asks a row with a coordinate that is no number word by word", () => {
    const row = [run("a", 0, 700, 10, 10), run("b", Number.NaN, 700, 10, 10), run("c", 30, 700, 10, 10)];
    const index = new RowWords(row);
    expect(index.lastEndingBy(35)).toBe(naive.lastEndingBy(row, 35));
    expect(index.firstStartingFrom(5)).toBe(naive.firstStartingFrom(row, 5));
    expect(index.crosses(5, 35)).toBe(true);
  });
});

describe("a row's spans indexed for strip questions", () => {
  it("answers as a pass over the spans does, for spans as rows merge them and for spans in any order", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const row = randomRow(next);
      const loose = row.map((w) => ({ x0: w.x, x1: w.x + w.width * (next() < 0.2 ? -1 : 1) }));
      for (const spans of [merged(row), loose]) {
        const index = new RowSpans(spans);
        for (const x0 of places) {
          for (const width of [-1.25, 0, 1.25, 5, 20]) {
            const g = { x0, x1: x0 + width };
            expect(index.coversWholeOrMisses(g), `seed ${seed} coversWholeOrMisses(${x0}, ${g.x1})`).toBe(naive.coversWholeOrMisses(spans, g));
            expect(index.holds(g), `seed ${seed} holds(${x0}, ${g.x1})`).toBe(naive.holds(spans, g));
          }
        }
      }
    }
  });
});
