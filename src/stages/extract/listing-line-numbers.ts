/**
 * Line numbers printed beside a code listing (LaTeX listings and minted, pandoc's numbered code
 * blocks): 1, 2, 3 … in a column of their own, left of monospaced code. They number the
 * printed lines, not the program, and left in the text they are read as part of each line of
 * code ("5 console.log(…)") and make the listing look like a table. They are taken off, so the
 * listing comes out as the code it is (verbatim).
 *
 * Only numbers that are runs of their own, that count up by one down consecutive lines, that
 * stand at one x left of the code, and whose lines are otherwise monospaced are taken: the line
 * numbers of a transcript or a statute set in proportional type are the document's own and stay.
 */
import { textLine, type Line } from "../../core/records.js";
import { buildLine } from "./line-grouping.js";
import type { SpacingOptions } from "./word-spacing.js";

/** Numbered lines needed before a column of numbers is read as a listing's line numbers: fewer, and a lone page number would go (docs/extraction.md §4.5). */
const MIN_NUMBERED_LINES = 3;
/** The numbers of one column stand within this × font size of one another (right-aligned 9 and 10 differ by a digit). */
const NUMBER_COLUMN_EMS = 1.5;

/**
 * The lines with their listing line numbers taken off, line for line (a line that held only its
 * number, an empty line of the listing, is left with no text, for the caller to drop).
 */
export function stripListingLineNumbers(lines: readonly Line[], options: SpacingOptions): Line[] {
  const out: Line[] = [];
  let i = 0;
  while (i < lines.length) {
    const end = numberedRunEnd(lines, i);
    if (end - i < MIN_NUMBERED_LINES) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    for (let k = i; k < end; k++) {
      const line = lines[k]!;
      const code = line.runs.slice(1);
      out.push(code.length ? textLine({ ...buildLine(code, options), role: line.role || undefined }) : textLine({ ...line, text: "", runs: [] }));
    }
    i = end;
  }
  return out;
}

/** The end of the numbered run of lines that starts at `start` (`start` itself when none does). */
function numberedRunEnd(lines: readonly Line[], start: number): number {
  const first = lineNumber(lines[start]!);
  if (first === undefined) return start;
  const x = lines[start]!.runs[0]!.x;
  let end = start;
  let expected = first.value;
  let code = 0;
  while (end < lines.length) {
    const n = lineNumber(lines[end]!);
    if (!n || n.value !== expected || Math.abs(lines[end]!.runs[0]!.x - x) > NUMBER_COLUMN_EMS * n.size) break;
    if (lines[end]!.runs.length > 1) code++;
    expected++;
    end++;
  }
  return code >= MIN_NUMBERED_LINES - 1 ? end : start;
}

/**
 * The number a line starts with, when the line is a number run followed (after a gap) by
 * nothing but monospaced runs.
 */
function lineNumber(line: Line): { value: number; size: number } | undefined {
  const [first, ...rest] = line.runs;
  if (!first || first.monospace || !/^\d{1,5}$/.test(first.text.trim())) return undefined;
  if (!rest.every((r) => r.monospace)) return undefined;
  if (rest[0] && rest[0].x - (first.x + first.width) < 0.5 * first.fontSize) return undefined;
  return { value: Number(first.text.trim()), size: first.fontSize };
}
