/**
 * Changing a page's lines while keeping its paragraphs, text and flags consistent. Stages that
 * remove lines (furniture) or change their text (dehyphenation) go through these, never edit
 * `text` by hand.
 */
import { renderPageText } from "./page-text.js";
import { textLine, type Line, type PageRecord, type Paragraph } from "../core/records.js";

/** The page with its text rebuilt from its lines and paragraphs. */
export function rerender(page: PageRecord): PageRecord {
  const text = renderPageText(page.lines, page.paragraphs, page.mode);
  return { ...page, text, empty: text.length === 0 };
}

/**
 * The page without the lines at `remove`; paragraphs shrink, and vanish when emptied (the next
 * item of a tight list then loses its `sameBlock`).
 */
export function withoutLines(page: PageRecord, remove: ReadonlySet<number>): PageRecord {
  if (remove.size === 0) return page;
  const newIndex: number[] = [];
  const lines: Line[] = [];
  page.lines.forEach((line, i) => {
    newIndex[i] = lines.length;
    if (!remove.has(i)) lines.push(line);
  });
  newIndex[page.lines.length] = lines.length;
  const moved = page.paragraphs.map((p) => ({ ...p, start: newIndex[p.start]!, end: newIndex[p.end]! }));
  const paragraphs: Paragraph[] = [];
  moved.forEach((p, k) => {
    if (p.end <= p.start) return;
    // An item printed right under one that is gone now follows another paragraph: a block of its own.
    const under = k > 0 && moved[k - 1]!.end > moved[k - 1]!.start;
    if (p.sameBlock && !under) delete p.sameBlock;
    paragraphs.push(p);
  });
  return rerender({ ...page, lines, paragraphs });
}

/** The page with new text for some lines (by index); a line left empty is removed. */
export function withLineTexts(page: PageRecord, texts: ReadonlyMap<number, string>): PageRecord {
  if (texts.size === 0) return page;
  const lines = page.lines.map((line, i) => (texts.has(i) ? textLine({ ...line, text: texts.get(i)! }) : line));
  const emptied = new Set([...texts].filter(([, t]) => t.trim() === "").map(([i]) => i));
  return withoutLines(rerender({ ...page, lines }), emptied);
}
