import { describe, expect, it } from "vitest";
import { drawnOrder, forgetReorderings, isRightToLeft, readingOrder } from "../../src/stages/extract/reading-direction.js";
import { joinRuns } from "../../src/stages/extract/word-spacing.js";
import { run } from "../helpers/runs.js";

const options = { spaceRatio: 0.25, collapseLetterSpacing: true };

/** Words as pdf.js hands them over (each in reading order), placed left to right as drawn. */
const drawn = (...words: string[]) => words.map((w, i) => run(w, 100 + 40 * i, 700, 10, 30));

describe("reading direction", () => {
  it("reads a Hebrew line drawn right to left in reading order", () => {
    expect(joinRuns(drawn("גולמי", "מקומי", "תוצר"), options)).toBe("תוצר מקומי גולמי");
  });

  it("turns brackets drawn mirrored in right-to-left text", () => {
    // Drawn left to right: "(" then the last word, the middle one, ")" and the first.
    const runs = [run("(", 100, 700, 10, 3), run("יהלומים", 103, 700, 10, 21.5), run("ללא", 128, 700, 10, 10.8), run(")", 138.8, 700, 10, 3), run("תעשייה", 145, 700, 10, 21)];
    expect(joinRuns(runs, options)).toBe("תעשייה (ללא יהלומים)");
  });

  it("keeps numbers in a right-to-left line left to right, and a footnote's marker first", () => {
    // The caption "המשק עיקריים, 31.12.14" drawn: the date at the left, the words right to left.
    expect(readingOrder("31.12.14 ," + drawnOrder("המשק עיקריים"))).toBe("המשק עיקריים, 31.12.14");
    expect(readingOrder(drawnOrder("לצריכה.") + " " + drawnOrder("סך") + " (2)")).toBe("(2) סך לצריכה.");
  });

  it("reverses only the right-to-left words of a left-to-right line", () => {
    expect(joinRuns([run("The word", 100, 700, 10, 40), run("שלום", 143, 700, 10, 20), run("means peace", 166, 700, 10, 55)], options)).toBe("The word שלום means peace");
  });

  it("reads an Arabic line in reading order", () => {
    expect(joinRuns(drawn("الانتخابات", "نتائج"), options)).toBe("نتائج الانتخابات");
  });

  it("answers a text asked again as the first time: mirrored or not, after a new document, past the memo's size", () => {
    const visual = ")ללא יהלומים(";
    const mirrored = readingOrder(visual);
    const unmirrored = readingOrder(visual, { mirror: false });
    // Brackets drawn in right-to-left text turn only when asked to: two answers for one text.
    expect(mirrored).not.toBe(unmirrored);
    expect(readingOrder(visual, { mirror: false })).toBe(unmirrored);
    expect(readingOrder(visual)).toBe(mirrored);
    forgetReorderings();
    expect(readingOrder(visual, { mirror: false })).toBe(unmirrored);
    // More texts than a memo keeps, each a word of its own: every one still read right.
    const words = Array.from({ length: 5000 }, (_, i) => `${"אבגדהוזחטי"[i % 10]}${"כלמנסעפצקר"[Math.floor(i / 10) % 10]}${"שת"[Math.floor(i / 100) % 2]}${i}`);
    const fresh = words.map((w) => {
      forgetReorderings();
      return drawnOrder(w);
    });
    forgetReorderings();
    // Once as the memo fills and starts over, once from what it kept.
    expect(words.map((w) => drawnOrder(w))).toEqual(fresh);
    expect(words.map((w) => drawnOrder(w))).toEqual(fresh);
  });

  it("leaves text without right-to-left letters alone", () => {
    expect(readingOrder("Total (2025): 4,120")).toBe("Total (2025): 4,120");
    expect(isRightToLeft("2014 2013")).toBe(false);
    expect(isRightToLeft("סך הכל 2014")).toBe(true);
  });
});
