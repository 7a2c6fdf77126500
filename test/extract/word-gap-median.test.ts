import { describe, expect, it } from "vitest";
import { fragmentsOf, narrowerThanWordGaps, type Fragment } from "../../src/stages/extract/column-layout.js";
import { run } from "../helpers/runs.js";

/**
 * The typical word gap a gutter must be wider than, as column finding first worked it out: every
 * gap of the rows (a run's spaces counted at 0.6 × its average character width, as many times as
 * it has spaces; a gap between runs on one side of the strip as itself), sorted, the median by count.
 */
function medianWordGap(rows: readonly { fragments: readonly Fragment[] }[], g: { x0: number; x1: number }): number {
  const gaps: { gap: number; count: number }[] = [];
  for (const row of rows) {
    let prev: Fragment["runs"][number] | undefined;
    for (const f of row.fragments) {
      f.runs.forEach((r, i) => {
        const spaces = r.text.trim().split(/\s+/).length - 1;
        if (spaces > 0) gaps.push({ gap: (0.6 * r.width) / r.text.length, count: spaces });
        if (i > 0 && r.x > f.runs[i - 1]!.x + f.runs[i - 1]!.width) gaps.push({ gap: r.x - (f.runs[i - 1]!.x + f.runs[i - 1]!.width), count: 1 });
      });
      const first = f.runs[0]!;
      if (prev) {
        const from = prev.x + prev.width;
        if (first.x > from && (first.x <= g.x0 || from >= g.x1)) gaps.push({ gap: first.x - from, count: 1 });
      }
      prev = f.runs[f.runs.length - 1];
    }
  }
  const count = gaps.reduce((n, g) => n + g.count, 0);
  if (count === 0) return 0;
  gaps.sort((a, b) => a.gap - b.gap);
  let seen = 0;
  for (const { gap, count: n } of gaps) if ((seen += n) > count >> 1) return gap;
  return 0;
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("word gaps against a gutter", () => {
  it("says a strip is narrower than 1.5 × the median word gap exactly when the sorted median says so", () => {
    const next = random(33);
    let narrower = 0;
    for (let trial = 0; trial < 400; trial++) {
      const rows = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, r) => {
        let x = 40;
        const runs = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
          const text = ["a", "word", "two words", "three little words", "12,5", "x y"][Math.floor(next() * 6)]!;
          const out = run(text, x, 700 - 12 * r, 10);
          // Gaps of a fraction of an em to a few ems, some of them the same width.
          x += out.width + [0.5, 1, 2, 2, 3.5, 8, 20][Math.floor(next() * 7)]!;
          return out;
        });
        return { fragments: fragmentsOf(runs, 0.7), y: 700 - 12 * r };
      });
      const x0 = 40 + next() * 200;
      const g = { x0, x1: x0 + [0, 0.5, 1.5, 3, 5.25, 12][Math.floor(next() * 6)]! };
      const expected = g.x1 - g.x0 < 1.5 * medianWordGap(rows, g);
      if (expected) narrower++;
      expect(narrowerThanWordGaps(rows, g, 1.5), `trial ${trial}`).toBe(expected);
    }
    // Both answers were put to the test.
    expect(narrower).toBeGreaterThan(40);
    expect(narrower).toBeLessThan(360);
  });

  it("finds no strip narrower than the gaps of rows without any", () => {
    const rows = [{ fragments: fragmentsOf([run("one", 40, 700)], 0.7) }];
    expect(narrowerThanWordGaps(rows, { x0: 100, x1: 100 }, 1.5)).toBe(false);
  });
});
