/**
 * Joining the runs of one line into text: a word space where the gap between two runs is wider
 * than `spaceRatio` × the font size (docs/extraction.md §2.1: 0.25), nothing otherwise. Parsers split one word
 * into several runs (kerning, a font change mid-word) with no gap, so joining with a space always
 * is as wrong as joining with nothing.
 *
 * Two refinements on the same measure:
 * - letter-spaced text (every character its own run, gaps wider than a space): the word gap is
 *   then measured against the letter gap, so "A N N U A L" comes out as "ANNUAL";
 * - monospaced runs (code, typewriter text) keep their column alignment: a gap becomes as many
 *   spaces as character cells fit in it.
 */
import type { TextRun } from "../../core/records.js";
import { collapseLetterSpacedText } from "./letter-spacing.js";
import { drawnOrder, readingOrder } from "./reading-direction.js";

export interface SpacingOptions {
  /** A horizontal gap wider than this × font size is a word space. */
  spaceRatio: number;
  /** Rewrite letter-spaced words ("A N N U A L") as words. */
  collapseLetterSpacing: boolean;
}

/** The least gap (× font size) a space drawn in the content must leave to be kept: runs that touch or overlap are one word (docs/extraction.md §2.2). */
const DRAWN_SPACE_MIN_GAP = 0.08;

/** How much wider than the letter gap a gap must be to separate words in letter-spaced text, in space widths: above letter-gap jitter, under a full space (docs/extraction.md §2.3). */
const LETTER_SPACED_WORD_GAP = 0.8;

export function joinRuns(runs: readonly TextRun[], options: SpacingOptions): string {
  const letterGap = options.collapseLetterSpacing ? letterSpacedGap(runs, options.spaceRatio) : 0;
  let out = "";
  // The last character appended: asking a regular expression of the text built so far would
  // flatten it at every run, copying a long line once per run. (Kept in locals, not a closure:
  // every line and every cell of a table is joined, and a closure's context is made each call.)
  let last = "";
  let prevText = "";
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    // Runs are put together as drawn, left to right; right-to-left text is then put in reading order.
    const text = drawnOrder(options.collapseLetterSpacing ? collapseLetterSpacedText(run.text) : run.text);
    const before = prevText;
    prevText = text;
    let piece = text;
    if (i > 0) {
      const prev = runs[i - 1]!;
      const gap = run.x - (prev.x + prev.width);
      const size = (prev.fontSize + run.fontSize) / 2;
      const spaceWidth = options.spaceRatio * size;
      // A run drawn over the previous one with the same text is a fake-bold double strike.
      if (text === before && Math.abs(run.x - prev.x) < spaceWidth) continue;
      if (/\s/.test(last) || /^\s/.test(text)) {
        piece = text;
      } else if (run.separateWord) {
        // A word by its source's own account: its box may overlap the last one's ("without" "a").
        piece = " " + text;
      } else {
        const threshold = letterGap > spaceWidth ? letterGap + LETTER_SPACED_WORD_GAP * spaceWidth : spaceWidth;
        // A drawn space counts when there is any gap at all for it to stand in; not before a lone
        // hyphen, where justification sets a space that is not one (LibreOffice's "volun -").
        const drawnSpace = run.spaceBefore && gap > DRAWN_SPACE_MIN_GAP * size && !/^[-\u00AD\u2010\u2011]$/u.test(text.trim());
        piece = gap > threshold || drawnSpace ? spacesFor(prev, run, gap) + text : text;
      }
    }
    out += piece;
    if (piece.length > 0) last = piece[piece.length - 1]!;
  }
  return readingOrder(out);
}

/**
 * The typical gap between single-character runs of the line, when most of its runs are single
 * characters (letter-spaced or character-by-character text); 0 otherwise.
 */
function letterSpacedGap(runs: readonly TextRun[], spaceRatio: number): number {
  if (runs.length < 3) return 0;
  const gaps: number[] = [];
  for (let i = 1; i < runs.length; i++) {
    const a = runs[i - 1]!;
    const b = runs[i]!;
    if (a.text.trim().length === 1 && b.text.trim().length === 1) gaps.push(b.x - (a.x + a.width));
  }
  if (gaps.length < 2 || gaps.length < (runs.length - 1) / 2) return 0;
  gaps.sort((x, y) => x - y);
  const median = gaps[Math.floor(gaps.length / 2)]!;
  return median > spaceRatio * runs[0]!.fontSize ? median : 0;
}

/** One space, or for monospaced runs as many spaces as character cells fill the gap. */
function spacesFor(prev: TextRun, run: TextRun, gap: number): string {
  if (prev.monospace && run.monospace && prev.text.length > 0) {
    const cell = prev.width / prev.text.length;
    if (cell > 0) return " ".repeat(Math.max(1, Math.round(gap / cell)));
  }
  return " ";
}
