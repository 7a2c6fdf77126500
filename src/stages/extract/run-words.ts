/**
 * A run's words as runs of their own. pdf.js often draws a whole row of a dense table as one
 * item ("45.191 290.333") or a phrase with its spaces; finding a table's columns needs each
 * word's place. Without glyph positions, a word's x is interpolated along the run by character
 * count, which is close enough to tell which column a word stands in.
 */
import type { TextRun } from "../../core/records.js";

export function runWords(run: TextRun): TextRun[] {
  if (!/\S\s+\S/u.test(run.text)) return [run];
  const chars = [...run.text];
  const advance = run.width / chars.length;
  const words: TextRun[] = [];
  let at = 0;
  for (const part of run.text.split(/(\s+)/u)) {
    const length = [...part].length;
    if (part && !/^\s+$/u.test(part)) {
      words.push({ ...run, text: part, x: run.x + at * advance, width: length * advance, ...(words.length || run.spaceBefore ? { spaceBefore: true } : {}) });
    }
    at += length;
  }
  return words;
}
