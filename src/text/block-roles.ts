/**
 * What each paragraph of a document is — heading (and level), list item (and depth), code, table,
 * caption, footnote, or running text — decided once, where the pages are read (the extract
 * stage, and the ocr stage over the pages it reads), and kept as the paragraph's `role`, so that
 * every view (plain text, Markdown, JSON), the chunk stage and the sinks name the document's
 * structure one way (docs/extraction.md §6.5–6.8). Pure: pages in, pages with roles out.
 */
import type { BlockRole, Line, Paragraph } from "../core/records.js";
import { findHeadings, type HeadingEvidence, type LaidOutText } from "./heading-detection.js";
import { isCaptionText } from "./heading-guards.js";
import { startsWithListMarker } from "./list-markers.js";
import { reflowLines } from "./page-text.js";

export type { HeadingEvidence, LaidOutText } from "./heading-detection.js";

/** Tags of a list item's parts on a tagged page (ISO 32000-1 §14.8.4.3.3). */
const LIST_TAGS = new Set(["LI", "Lbl", "LBody"]);
/** Tags of notes. */
const NOTE_TAGS = new Set(["Note", "FENote"]);

/** A footnote's mark: a number, or * † ‡ §, before its text. */
const FOOTNOTE_MARK = /^(?:\d{1,3}|[*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+)\s*\S/u;
/** A footnote is set smaller than the body: ~20 % in most styles (LaTeX 8 pt under 10 pt). */
const FOOTNOTE_SIZE_RATIO = 0.92;
/** Items whose markers stand within this × font size of each other are at one depth. */
const SAME_DEPTH_EMS = 0.5;
/** A marker further right than this × font size of the one before starts another list (another column), not a nested one. */
const NESTED_MAX_EMS = 6;

/** The pages with every paragraph's role (and a list item's depth) decided again from their lines, tags and the document's evidence. */
export function withBlockRoles<T extends LaidOutText>(pages: readonly T[], evidence: HeadingEvidence = {}): T[] {
  const levels = new Map(findHeadings(pages, evidence).map((h) => [`${h.page}:${h.paragraph}`, h.level]));
  return pages.map((page, p) => {
    const depths = new ListDepths();
    const bottom = footnoteZone(page);
    const paragraphs = page.paragraphs.map((paragraph, i): Paragraph => {
      const { role: _role, depth: _depth, ...rest } = paragraph;
      const lines = page.lines.slice(paragraph.start, paragraph.end);
      const role = roleOf(paragraph, lines, levels.get(`${p}:${i}`), bottom);
      if (role !== "LI") {
        depths.interrupt(lines[0]);
        return role ? { ...rest, role } : rest;
      }
      return { ...rest, role, depth: depths.depthOf(lines[0]!) };
    });
    return { ...page, paragraphs };
  });
}

/**
 * The pages with their heading levels numbered from 1 without gaps again, as they were decided:
 * for a stage that took some headings away (a running header read as one, then stripped as
 * furniture), so that no level stands empty between a section and its subsections.
 */
export function withHeadingLevelsClosed<T extends { paragraphs: readonly Paragraph[] }>(pages: readonly T[]): T[] {
  const used = new Set<number>();
  for (const page of pages) for (const p of page.paragraphs) if (roleLevel(p.role) !== undefined) used.add(roleLevel(p.role)!);
  const levels = [...used].sort((a, b) => a - b);
  if (levels.every((level, i) => level === i + 1)) return [...pages];
  return pages.map((page) => {
    if (!page.paragraphs.some((p) => roleLevel(p.role) !== undefined)) return page;
    const paragraphs = page.paragraphs.map((p) => {
      const level = roleLevel(p.role);
      return level === undefined ? p : { ...p, role: `H${levels.indexOf(level) + 1}` as BlockRole };
    });
    return { ...page, paragraphs };
  });
}

/** The heading level of a role (H1…H6), or undefined for any other. */
export function roleLevel(role: BlockRole | undefined): number | undefined {
  const level = /^H([1-6])$/u.exec(role ?? "");
  return level ? Number(level[1]) : undefined;
}

function roleOf(paragraph: Paragraph, lines: readonly Line[], level: number | undefined, footnotesBelow: number): BlockRole | undefined {
  if (lines.length === 0) return undefined;
  if (paragraph.kind === "table") return "Table";
  if (paragraph.kind === "verbatim") return "Code";
  if (level !== undefined) return `H${level}` as BlockRole;
  const tag = paragraph.tag;
  // Markers and caption numbers open a paragraph: its first line says (with the next, when the
  // first holds nothing but a bullet drawn on a line of its own).
  const first = lines.length > 1 && lines[0]!.text.trim().length <= 3 ? reflowLines(lines.slice(0, 2)) : lines[0]!.text.trimStart();
  if ((tag && LIST_TAGS.has(tag)) || startsWithListMarker(first)) return "LI";
  if (tag === "Caption" || isCaptionText(first)) return "Caption";
  if ((tag && NOTE_TAGS.has(tag)) || (lines[0]!.y < footnotesBelow && FOOTNOTE_MARK.test(first))) return "Footnote";
  return undefined;
}

/**
 * Where a page's footnotes may stand: below its lowest line of body-size text, when the page
 * has smaller text there. A baseline, in the page's frame (y up); -Infinity when there is none.
 */
function footnoteZone(page: LaidOutText): number {
  const sizes = page.lines.map((l) => l.fontSize).sort((a, b) => a - b);
  const body = sizes[sizes.length >> 1] ?? 0;
  let lowestBody = Infinity;
  for (const line of page.lines) if (line.fontSize >= FOOTNOTE_SIZE_RATIO * body && !line.offAxis) lowestBody = Math.min(lowestBody, line.y);
  const small = page.lines.some((l) => l.fontSize < FOOTNOTE_SIZE_RATIO * body && l.y < lowestBody);
  return small ? lowestBody : -Infinity;
}

/** The depth of consecutive list items, from how far right each item's marker stands. */
class ListDepths {
  private stack: { x: number; size: number }[] = [];

  depthOf(first: Line): number {
    const tolerance = SAME_DEPTH_EMS * first.fontSize;
    while (this.stack.length && this.stack[this.stack.length - 1]!.x > first.x + tolerance) this.stack.pop();
    const top = this.stack[this.stack.length - 1];
    if (top && first.x - top.x > NESTED_MAX_EMS * first.fontSize) this.stack = [];
    const last = this.stack[this.stack.length - 1];
    if (!last || first.x > last.x + tolerance) this.stack.push({ x: first.x, size: first.fontSize });
    return this.stack.length;
  }

  /** A paragraph that is no item ends the list, unless it is indented under the list's items (an item's second paragraph). */
  interrupt(first: Line | undefined): void {
    const outer = this.stack[0];
    if (!outer || !first || first.x <= outer.x + SAME_DEPTH_EMS * first.fontSize) this.stack = [];
  }
}
