/**
 * Which paragraphs are headings, and at what level: decided once, where the page is read, and
 * kept as the paragraph's role in the tagged-PDF vocabulary (H1…H6), so the chunk stage, the
 * sinks and a tagged page all name headings one way (docs/extraction.md §5.10).
 *
 * - A tagged page says so itself: a paragraph whose structure role (or the role all its lines
 *   share) is H1…H6 is a heading at that level, `H` is a heading ranked by size, and any other
 *   role (P, LI, Caption…) is not a heading whatever its size.
 * - Otherwise font size decides: a short paragraph (at most MAX_HEADING_LINES lines and
 *   MAX_HEADING_CHARS characters) whose every line is at least HEADING_SIZE_RATIO × the page's
 *   body size is a heading. The body size is the page's most common size by characters.
 *   Levels rank the heading sizes of the pages given (a whole document): the largest is H1,
 *   the next H2, … H6.
 */
import type { Line, Paragraph } from "../core/records.js";
import { bodyFontSize } from "./text-geometry.js";

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

const LEVELLED = /^H([1-6])$/;

/** What heading roles are decided on: a page's lines and the paragraphs over them. */
export interface LaidOutText {
  lines: readonly Line[];
  paragraphs: readonly Paragraph[];
}

/**
 * The pages with every heading's role set to H1…H6. Paragraphs that already have a role keep it
 * (a tagged H1…H6, a P), except a tagged `H`, which gets its level from its size.
 */
export function withHeadingRoles<T extends LaidOutText>(pages: readonly T[]): T[] {
  const sized: { page: number; paragraph: number; size: number }[] = [];
  pages.forEach((page, p) => {
    const body = bodyFontSize(page.lines);
    page.paragraphs.forEach((paragraph, i) => {
      const size = headingSize(paragraph, page.lines.slice(paragraph.start, paragraph.end), body);
      if (size !== undefined) sized.push({ page: p, paragraph: i, size });
    });
  });
  if (sized.length === 0) return [...pages];
  const levelOf = headingLevels(sized.map((s) => s.size));
  const roles = new Map(sized.map((s) => [`${s.page}:${s.paragraph}`, `H${levelOf(s.size)}`]));
  return pages.map((page, p) =>
    page.paragraphs.some((_, i) => roles.has(`${p}:${i}`))
      ? { ...page, paragraphs: page.paragraphs.map((paragraph, i) => (roles.has(`${p}:${i}`) ? { ...paragraph, role: roles.get(`${p}:${i}`)! } : paragraph)) }
      : page,
  );
}

/** A heading's level from its role: H1…H6 (set by the structure or by {@link withHeadingRoles}); undefined for any other paragraph. */
export function headingLevel(paragraph: Paragraph, lines: readonly Line[]): number | undefined {
  const level = LEVELLED.exec(structureRole(paragraph, lines) ?? "");
  return level ? Number(level[1]) : undefined;
}

/** The size to rank a heading that has no level yet by; undefined for a paragraph that is no such heading. */
function headingSize(paragraph: Paragraph, lines: readonly Line[], bodySize: number): number | undefined {
  if (lines.length === 0 || paragraph.kind !== "text") return undefined;
  const size = Math.min(...lines.map((l) => l.fontSize));
  const role = structureRole(paragraph, lines);
  if (role !== undefined) return role === "H" ? size : undefined;
  const chars = lines.reduce((n, l) => n + l.text.trim().length, lines.length - 1);
  if (lines.length > MAX_HEADING_LINES || chars > MAX_HEADING_CHARS) return undefined;
  if (bodySize <= 0 || size < HEADING_SIZE_RATIO * bodySize) return undefined;
  return size;
}

/** The paragraph's structure role, or the role all its lines share, on a tagged page. */
function structureRole(paragraph: Paragraph, lines: readonly Line[]): string | undefined {
  if (paragraph.role) return paragraph.role;
  const roles = new Set(lines.map((l) => l.role));
  const [only] = roles;
  return roles.size === 1 && only ? only : undefined;
}

/** Levels for heading sizes: the largest size is 1, each smaller distinct size one more, 6 at most. */
function headingLevels(sizes: readonly number[]): (size: number) => number {
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
