/**
 * A run's words as runs of their own. pdf.js often draws a whole row of a dense table as one
 * item ("45.191 290.333") or a phrase with its spaces; finding a table's columns needs each
 * word's place. Without glyph positions, a word's x is interpolated along the run by rough
 * character widths (a space or a comma is half a digit wide, an ideograph nearly two), which is
 * close enough to tell which column a word stands in: "627,469 1,248,804" by count alone puts
 * the second number two points too far left, into the next column's gutter.
 */
import { textRun, type TextRun } from "../../core/records.js";
import { drawnOrder, hasRightToLeft, readingOrder } from "./reading-direction.js";

export function runWords(run: TextRun): TextRun[] {
  if (!/\S\s+\S/u.test(run.text)) return [run];
  // Positions run left to right as drawn: a right-to-left run (handed over in reading order) is
  // split as drawn, each word then put back in reading order as pdf.js would hand it over
  // (brackets as drawn: the line they end up in turns them).
  const rightToLeft = hasRightToLeft(run.text);
  const drawn = rightToLeft ? drawnOrder(run.text) : run.text;
  const advance = run.width / widthOf(drawn);
  const words: TextRun[] = [];
  let at = 0;
  for (const part of drawn.split(/(\s+)/u)) {
    // A space inside a run is a word space: at least as wide as the word-space rule asks when
    // the words are joined again ("implementation - branding" keeps both spaces).
    const width = /^\s+$/u.test(part) ? Math.max(widthOf(part), (MIN_SPACE_EMS * run.fontSize) / advance) : widthOf(part);
    if (part && !/^\s+$/u.test(part)) {
      const text = rightToLeft ? readingOrder(part, { mirror: false }) : part;
      // Made as every run is (textRun): a spread copy has a shape of its own, and its numbers are
      // kept otherwise, so reads of runs and words mixed box each number they read.
      words.push(textRun({ ...run, text, x: run.x + at * advance, width: width * advance, spaceBefore: words.length > 0 || run.spaceBefore ? true : run.spaceBefore }));
    }
    at += width;
  }
  return words;
}

/** A space between a run's words is counted this wide at least (ems), above the 0.25 em word-space rule. */
const MIN_SPACE_EMS = 0.3;

/** Rough advance of a text in ems, from the widths of Helvetica-like faces by kind of character. */
function widthOf(text: string): number {
  let w = 0;
  for (const ch of text) {
    if (/[\s.,:;'’|!il]/u.test(ch)) w += 0.27;
    else if (/[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u.test(ch)) w += 1;
    else if (/[mwMW]/u.test(ch)) w += 0.85;
    else if (/\p{Lu}/u.test(ch)) w += 0.67;
    else w += 0.55;
  }
  return w || 1;
}
