import { describe, expect, it } from "vitest";
import { parsePageRange, selectPages } from "../../src/stages/extract/page-range.js";

describe("page ranges", () => {
  it("reads single pages, ranges, lists and open ends", () => {
    expect(selectPages(parsePageRange("2-4"), 10)).toEqual([2, 3, 4]);
    expect(selectPages(parsePageRange("1,3,7-8"), 10)).toEqual([1, 3, 7, 8]);
    expect(selectPages(parsePageRange("9-"), 10)).toEqual([9, 10]);
    expect(selectPages(parsePageRange("-2"), 10)).toEqual([1, 2]);
    expect(selectPages(parsePageRange("3,1-3"), 10)).toEqual([1, 2, 3]);
  });

  it("clamps a range that runs past the end silently (1-3 on a 2-page file gives both pages)", () => {
    expect(selectPages(parsePageRange("1-3"), 2)).toEqual([1, 2]);
  });

  it("selects nothing when no requested page exists, which the extract stage reports", () => {
    expect(selectPages(parsePageRange("5-6"), 2)).toEqual([]);
  });

  it("selects every page without a range", () => {
    expect(selectPages(undefined, 3)).toEqual([1, 2, 3]);
  });

  it.each(["", "0", "4-2", "a-b", "1-2-3", "-"])("rejects %j with a sentence", (spec) => {
    expect(() => parsePageRange(spec)).toThrow(/page|range|ends before|numbered/);
  });
});
