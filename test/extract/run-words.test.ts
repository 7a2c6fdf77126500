import { describe, expect, it } from "vitest";
import { runWords } from "../../src/stages/extract/run-words.js";
import { run } from "../helpers/runs.js";

describe("a run's words", () => {
  it("places each word by its characters' widths: an ideograph is about two digits wide, a comma half of one", () => {
    // "売上高 1,234" drawn at 10 pt: three ideographs (10 pt each), a space, then the number, 57.4 pt in all.
    const words = runWords(run("売上高 1,234", 100, 700, 10, 57.4));
    expect(words.map((w) => w.text)).toEqual(["売上高", "1,234"]);
    // The number starts after 30 pt of ideographs and a space; by character count alone it would start at 125.5.
    expect(words[1]!.x).toBeGreaterThan(130);
    expect(words[1]!.x).toBeLessThan(135);
    expect(words[0]!.x).toBe(100);
  });

  it("keeps a word space in the run at least as wide as the word-space rule asks", () => {
    const words = runWords(run("implementation - branding", 50, 700, 10, 120));
    expect(words.map((w) => w.text)).toEqual(["implementation", "-", "branding"]);
    for (let k = 1; k < words.length; k++) expect(words[k]!.x - (words[k - 1]!.x + words[k - 1]!.width)).toBeGreaterThanOrEqual(0.25 * 10);
  });
});
