/**
 * A run's words as runs of their own. pdf.js often draws a whole row of a dense table as one
 * item ("45.191 290.333") or a phrase with its spaces; finding a table's columns needs each
 * word's place. Without glyph positions, a word's x is interpolated along the run by character
 * count, which is close enough to tell which column a word stands in.
 */
import type { TextRun } from "../../core/records.js";
import { drawnOrder, hasRightToLeft, readingOrder } from "./reading-direction.js";

export function runWords(run: TextRun): TextRun[] {
  if (!/\S\s+\S/u.test(run.text)) return [run];
  // Positions run left to right as drawn: a right-to-left run (handed over in reading order) is
  // split as drawn, each word then put back in reading order as pdf.js would hand it over
  // (brackets as drawn: the line they end up in turns them).
  const rightToLeft = hasRightToLeft(run.text);
  const drawn = rightToLeft ? drawnOrder(run.text) : run.text;
  const chars = [...drawn];
  const advance = run.width / chars.length;
  const words: TextRun[] = [];
  let at = 0;
  for (const part of drawn.split(/(\s+)/u)) {
    const length = [...part].length;
    if (part && !/^\s+$/u.test(part)) {
      const text = rightToLeft ? readingOrder(part, { mirror: false }) : part;
      words.push({ ...run, text, x: run.x + at * advance, width: length * advance, ...(words.length || run.spaceBefore ? { spaceBefore: true } : {}) });
    }
    at += length;
  }
  return words;
}
