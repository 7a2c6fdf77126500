/**
 * Where the rules a page draws (rulings.ts) stand against its lines of text: which rules run
 * through a line between its words, whether a rule runs between two lines, which grid a line
 * stands in (docs/extraction.md §4.4.1).
 */
import { textRun, type Line, type TextRun } from "../../core/records.js";
import type { Rule, RuledRegion } from "./rulings.js";
import { runWords } from "./run-words.js";

/**
 * Where a line of text sits across the rules: a rule crosses the line when it runs through the
 * middle of its letters (a third of the font size above the baseline), which the rules between
 * the cells of a row always do and a rule above or under the row never does.
 */
const LETTER_MIDDLE_EMS = 0.3;

/** Whether a vertical rule runs through the letters of a line (baseline `y`, font size `size`). */
export function ruleThroughLine(rule: Rule, y: number, size: number): boolean {
  const middle = y + LETTER_MIDDLE_EMS * size;
  return rule.from <= middle && rule.to >= middle;
}

/** The x of the vertical rules that run through a line (baseline `y`, font size `size`) between `x0` and `x1`. */
export function rulesThroughLine(vertical: readonly Rule[], y: number, size: number, x0: number, x1: number): number[] {
  return vertical.filter((r) => r.at > x0 && r.at < x1 && ruleThroughLine(r, y, size)).map((r) => r.at);
}

/**
 * Rules this far across a table between two lines (share of its width, all their pieces
 * together) separate its rows there; an underlined word, a rule under one header cell, a
 * fraction's bar in a formula, does not.
 */
const ROW_RULE_SHARE = 0.5;

/**
 * Whether a horizontal rule runs between two lines of a table (baselines `above` > `below`,
 * font size `size`) across most of the table's width x0..x1: below the middle of the upper
 * line's letters, and above the top of the lower line's small letters where the lower line's
 * `words` stand under it. Where they do not, the rule may run lower, down to the baseline: the
 * last line of a header cell spanning two rows of a grid (no rule under it there) may stand
 * level with a rule that parts the rows beside it.
 */
export function ruleBetweenLines(horizontal: readonly Rule[], above: number, below: number, size: number, x0: number, x1: number, words: readonly TextRun[] = []): boolean {
  const top = above + LETTER_MIDDLE_EMS * size;
  const bottom = below + 2 * LETTER_MIDDLE_EMS * size;
  const width = x1 - x0;
  if (!(width > 0) || top <= bottom) return false;
  const overWords = (r: Rule) => words.length === 0 || words.some((w) => w.x < r.to && w.x + w.width > r.from);
  // A rule broken where a cell spans it (a stub column's cell over two header rows) counts by its pieces.
  let covered = 0;
  for (const r of horizontal) if (r.at < top && (r.at > bottom || (r.at > below && !overWords(r)))) covered += Math.max(0, Math.min(r.to, x1) - Math.max(r.from, x0));
  return covered >= ROW_RULE_SHARE * width;
}

/**
 * The grid a line of text starts in (its letters' middle inside the grid's height, its start
 * inside its width), or -1. A line may run on past its grid: a grid of VAT rates set beside the
 * terms of sale, on the same baselines.
 */
export function regionOfLine(line: Line, regions: readonly RuledRegion[]): number {
  const middle = line.y + LETTER_MIDDLE_EMS * line.fontSize;
  const slack = LETTER_MIDDLE_EMS * line.fontSize;
  return regions.findIndex((r) => middle >= r.y0 && middle <= r.y1 && line.x >= r.x0 - slack && line.x <= r.x1);
}

/** A run that a rule runs through between two of its words, as one run for the words on each side. */
export function cutAtRules(run: TextRun, cuts: readonly number[]): TextRun[] {
  if (!cuts.some((x) => x > run.x && x < run.x + run.width)) return [run];
  const pieces: TextRun[][] = [];
  let side = -1;
  for (const word of runWords(run)) {
    const mid = word.x + word.width / 2;
    const at = cuts.filter((x) => x < mid).length;
    if (at !== side || pieces.length === 0) pieces.push([]);
    side = at;
    pieces[pieces.length - 1]!.push(word);
  }
  return pieces.map((words) => {
    const last = words[words.length - 1]!;
    return textRun({ ...words[0]!, text: words.map((w) => w.text).join(" "), width: last.x + last.width - words[0]!.x });
  });
}

/** The x of the vertical rules through a line, inside its extent. */
export function lineCuts(line: Line, vertical: readonly Rule[]): number[] {
  return rulesThroughLine(vertical, line.y, line.fontSize, line.x, line.x + line.width);
}
