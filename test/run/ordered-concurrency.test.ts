import { describe, expect, it } from "vitest";
import { mapOrdered } from "../../src/run/ordered-concurrency.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An async source that records how far it has been pulled. */
function countingSource(n: number) {
  const state = { pulled: 0 };
  async function* items() {
    for (let i = 0; i < n; i++) {
      state.pulled++;
      yield i;
    }
  }
  return { state, items: items() };
}

describe("ordered concurrency", () => {
  it("yields results in source order although later items finish first", async () => {
    const { items } = countingSource(6);
    const out: number[] = [];
    for await (const r of mapOrdered(items, 3, async (i) => {
      await sleep((6 - i) * 5);
      return i;
    })) out.push(r);
    expect(out).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("never has more than `concurrency` items in flight", async () => {
    const { items } = countingSource(20);
    let running = 0;
    let peak = 0;
    for await (const _ of mapOrdered(items, 2, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await sleep(i % 3);
      running--;
      return i;
    }));
    expect(peak).toBe(2);
  });

  it("pulls the source lazily, not all at once", async () => {
    const { items, state } = countingSource(1000);
    const gen = mapOrdered(items, 2, async (i) => i);
    await gen.next();
    expect(state.pulled).toBeLessThanOrEqual(8);
    await gen.return(undefined);
  });

  it("finishes when every result was taken before the next item was pulled (concurrency 1)", async () => {
    const { items } = countingSource(10);
    const out: number[] = [];
    for await (const r of mapOrdered(items, 1, async (i) => i)) out.push(r);
    expect(out).toHaveLength(10);
  });

  it("handles an empty source", async () => {
    const { items } = countingSource(0);
    const out: number[] = [];
    for await (const r of mapOrdered(items, 4, async (i) => i)) out.push(r);
    expect(out).toEqual([]);
  });
});
