/**
 * Which paragraphs are headings, and at what level, for the heading path every chunk carries.
 *
 * - A tagged page says so itself: a paragraph whose structure role (or the role all its lines
 *   share) is H1…H6 is a heading at that level, `H` is a heading ranked by size, and any other
 *   role (P, LI, Caption…) is not a heading whatever its size.
 * - Otherwise font size decides: a short paragraph (at most MAX_HEADING_LINES lines and
 *   MAX_HEADING_CHARS characters) whose every line is at least HEADING_SIZE_RATIO × the page's
 *   body size is a heading. The body size is the page's most common size by characters.
 *   Levels rank the heading sizes of the whole document: the largest is H1, the next H2, … H6.
 */
import type { Line, Paragraph } from "../../core/records.js";

/**
 * 12 pt headings over 11 pt body text (×1.09) are common in office documents, so the ratio sits
 * just under it; an OCR layer's jitter (half a point at 11 pt, ×1.05) stays below it.
 */
export const HEADING_SIZE_RATIO = 1.08;
/** Titles wrap to two or three lines; a longer block of large type is a pull quote or a cover. */
export const MAX_HEADING_LINES = 3;
export const MAX_HEADING_CHARS = 200;
/** Heading sizes within 2 % of each other are one level (producers round sizes differently). */
const SAME_LEVEL_RATIO = 1.02;

/** The size most of a page's characters are set in: its body text. 0 for a page without lines. */
export function bodyFontSize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.fontSize * 10) / 10;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, w] of weight) {
    if (w > bestWeight || (w === bestWeight && size < best)) {
      best = size;
      bestWeight = w;
    }
  }
  return best;
}

/** A heading's level when the structure gives it, else its size, ranked later by {@link headingLevels}. */
export type HeadingCue = { level: number } | { size: number };

export function headingCue(paragraph: Paragraph, lines: readonly Line[], text: string, bodySize: number): HeadingCue | undefined {
  if (lines.length === 0) return undefined;
  const size = Math.min(...lines.map((l) => l.fontSize));
  const role = structureRole(paragraph, lines);
  if (role !== undefined) {
    const level = /^H([1-6])$/.exec(role);
    if (level) return { level: Number(level[1]) };
    return role === "H" ? { size } : undefined;
  }
  if (lines.length > MAX_HEADING_LINES || text.length > MAX_HEADING_CHARS) return undefined;
  if (bodySize <= 0 || size < HEADING_SIZE_RATIO * bodySize) return undefined;
  return { size };
}

/** The paragraph's structure role, or the role all its lines share, on a tagged page. */
function structureRole(paragraph: Paragraph, lines: readonly Line[]): string | undefined {
  const own = (paragraph as { role?: unknown }).role;
  if (typeof own === "string" && own) return own;
  const roles = new Set(lines.map((l) => (l as { role?: unknown }).role));
  const [only] = roles;
  return roles.size === 1 && typeof only === "string" && only ? only : undefined;
}

/** Levels for heading sizes: the largest size is 1, each smaller distinct size one more, 6 at most. */
export function headingLevels(sizes: readonly number[]): (size: number) => number {
  const levels = new Map<number, number>();
  let level = 0;
  let groupTop = Infinity;
  for (const size of [...new Set(sizes)].sort((a, b) => b - a)) {
    if (size * SAME_LEVEL_RATIO < groupTop) {
      level++;
      groupTop = size;
    }
    levels.set(size, Math.min(level, 6));
  }
  return (size) => levels.get(size) ?? 6;
}

/** The headings in force at a point of the document, outermost first. */
export class HeadingPath {
  private readonly stack: { level: number; text: string }[] = [];

  /** A heading of `level` closes every open heading at that level or deeper. */
  enter(level: number, text: string): void {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level >= level) this.stack.pop();
    this.stack.push({ level, text });
  }

  current(): string[] {
    return this.stack.map((h) => h.text);
  }
}
