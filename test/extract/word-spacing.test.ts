import { describe, expect, it } from "vitest";
import { joinRuns } from "../../src/stages/extract/word-spacing.js";
import { run, words } from "../helpers/runs.js";

const options = { spaceRatio: 0.25, collapseLetterSpacing: true };

describe("word spacing", () => {
  it("joins runs of one word drawn with no gap into the whole word (no f i l e n a m e)", () => {
    expect(joinRuns([run("file", 100, 700), run("name", 120, 700)], options)).toBe("filename");
    const letters = words([..."filename"], 100, 700, 0);
    expect(joinRuns(letters, options)).toBe("filename");
  });

  it("puts one space where the gap is wider than space_ratio × font size", () => {
    // 0.25 × 10 pt = 2.5 pt: a 3 pt gap is a space, a 2 pt gap (kerning) is not.
    expect(joinRuns(words(["two", "words"], 100, 700, 3), options)).toBe("two words");
    expect(joinRuns(words(["kern", "ed"], 100, 700, 2), options)).toBe("kerned");
  });

  it("measures the gap against the runs' own size, so 9 pt and 14 pt text each get their threshold", () => {
    // 3 pt is a space at 9 pt (threshold 2.25) but not at 14 pt (threshold 3.5).
    expect(joinRuns(words(["small", "text"], 100, 700, 3, 9), options)).toBe("small text");
    expect(joinRuns(words(["Big", "Head"], 100, 700, 3, 14), options)).toBe("BigHead");
  });

  it("never doubles a space that a run already carries", () => {
    expect(joinRuns([run("word ", 100, 700), run("next", 130, 700)], options)).toBe("word next");
    expect(joinRuns([run("word", 100, 700), run(" next", 130, 700)], options)).toBe("word next");
  });

  it("keeps a space the content drew although it is narrower than the threshold (italic before roman)", () => {
    expect(joinRuns([run("sibi", 100, 700, 11, 20), run("medias", 122.1, 700, 11, 30, { spaceBefore: true })], options)).toBe("sibi medias");
    expect(joinRuns([run("sibi", 100, 700, 11, 20), run("medias", 122.1, 700, 11, 30)], options)).toBe("sibimedias");
  });

  it("sets apart OCR words whose boxes touch or overlap (without a, not withouta)", () => {
    expect(joinRuns([run("without", 100, 700, 11, 40), run("a", 139.5, 700, 11, 6, { separateWord: true })], options)).toBe("without a");
    expect(joinRuns([run("without", 100, 700, 11, 40), run("a", 139.5, 700, 11, 6)], options)).toBe("withouta");
  });

  it("ignores a drawn space before a lone line-end hyphen (justification)", () => {
    expect(joinRuns([run("volun", 100, 700, 11, 30), run("-", 131.3, 700, 11, 3.7, { spaceBefore: true })], options)).toBe("volun-");
  });

  it("keeps a footnote marker glued to the word it follows", () => {
    expect(joinRuns([run("estimated.", 100, 700), run("1", 150.2, 703, 7)], options)).toBe("estimated.1");
  });

  it("reads a heading whose letters are drawn one by one with wide spacing as words", () => {
    // Letters 8 pt apart, words 16 pt apart (letter gap + a word space).
    const annual = words([..."ANNUAL"], 100, 700, 8, 14);
    const last = annual[annual.length - 1]!;
    const report = words([..."REPORT"], last.x + last.width + 16, 700, 8, 14);
    expect(joinRuns([...annual, ...report], options)).toBe("ANNUAL REPORT");
  });

  it("rewrites a run that pdf.js already spaced out (A N N U A L) as a word", () => {
    expect(joinRuns([run("A N N U A L", 100, 700, 17), run("R E P O R T", 250, 700, 17)], options)).toBe("ANNUAL REPORT");
    expect(joinRuns([run("A N N U A L  R E P O R T", 100, 700, 17)], options)).toBe("ANNUAL REPORT");
  });

  it("leaves letter spacing alone when collapsing is switched off", () => {
    expect(joinRuns([run("A N N U A L", 100, 700, 17)], { ...options, collapseLetterSpacing: false })).toBe("A N N U A L");
  });

  it("does not collapse single letters inside ordinary text", () => {
    expect(joinRuns([run("options a b c and d", 100, 700)], options)).toBe("options a b c and d");
  });

  it("drops a fake-bold second strike of the same text", () => {
    expect(joinRuns([run("Bold", 100, 700), run("Bold", 100.4, 700)], options)).toBe("Bold");
  });

  it("keeps column alignment in monospaced text", () => {
    const mono = { monospace: true };
    // 6 pt cells: a 24 pt gap is four spaces.
    const a = run("run-id", 100, 700, 10, 36, mono);
    const b = run("started", 160, 700, 10, 42, mono);
    expect(joinRuns([a, b], options)).toBe("run-id    started");
  });
});
