import { describe, expect, it } from "vitest";
import type { TextRun } from "../../src/core/records.js";
import { groupLines } from "../../src/stages/extract/line-grouping.js";
import { stripListingLineNumbers } from "../../src/stages/extract/listing-line-numbers.js";
import { run } from "../helpers/runs.js";

const options = { lineTolerance: 0.5, spaceRatio: 0.25, collapseLetterSpacing: true };
const mono = { monospace: true };

/** A numbered listing: the number at x = 83 in a proportional font, the code monospaced from x = 98. */
function listing(code: string[], first = 1, numberFont: Partial<TextRun> = {}): TextRun[] {
  return code.flatMap((text, i) => {
    const y = 700 - 12 * i;
    const number = run(String(first + i), 83, y, 10, 5 * String(first + i).length, numberFont);
    return text ? [number, run(text, 98, y, 10, 6 * text.length, mono)] : [number];
  });
}

const texts = (runs: TextRun[]) => stripListingLineNumbers(groupLines(runs, options), options).map((l) => l.text);

describe("listing line numbers", () => {
  it("takes the printed line numbers off a code listing, leaving an empty line where the code had one", () => {
    expect(texts(listing(["type Result = 1", "", "function verify()", "return 2"]))).toEqual(["type Result = 1", "", "function verify()", "return 2"]);
  });

  it("takes numbers that start anywhere, as long as they count up by one", () => {
    expect(texts(listing(["a = 1", "b = 2", "c = 3"], 41))).toEqual(["a = 1", "b = 2", "c = 3"]);
  });

  it("keeps numbers that do not count up, and the line numbers of proportional text (a transcript)", () => {
    const skipping = [run("1", 83, 700), run("x = 1", 98, 700, 10, 30, mono), run("5", 83, 688), run("y = 2", 98, 688, 10, 30, mono), run("9", 83, 676), run("z = 3", 98, 676, 10, 30, mono)];
    expect(texts(skipping)).toEqual(["1 x = 1", "5 y = 2", "9 z = 3"]);
    const transcript = [1, 2, 3].map((n) => [run(String(n), 60, 700 - 12 * n), run("JUSTICE SMITH: Counsel, you may proceed.", 90, 700 - 12 * n, 10, 200)]).flat();
    expect(texts(transcript)).toEqual(["1 JUSTICE SMITH: Counsel, you may proceed.", "2 JUSTICE SMITH: Counsel, you may proceed.", "3 JUSTICE SMITH: Counsel, you may proceed."]);
  });
});
