/**
 * The blocks of the plain view — running text, headings, tables, code listings — located in the
 * document text. The page text is the truth (chunk offsets point into it); the page's
 * paragraphs only say what each part of it is, so each paragraph is rendered on its own and
 * found in the page text in order. Text that no paragraph accounts for (a stage rewrote it
 * without keeping the paragraphs in step) becomes running text, split at blank lines.
 */
import type { PageRecord } from "../core/records.js";
import type { DocumentText } from "./document-text.js";
import type { Block, BlockKind } from "./document-view.js";
import { roleLevel } from "./block-roles.js";
import { paragraphText } from "./page-text.js";

const BLANK_LINE = /\n[^\S\n]*\n/;

export function plainBlocks(pages: readonly Pick<PageRecord, "number" | "text" | "continues" | "lines" | "paragraphs" | "mode">[], doc: DocumentText): Block[] {
  const blocks: Block[] = [];
  let spanIndex = 0;
  for (const page of pages) {
    if (page.text.length === 0) continue;
    const base = doc.pages[spanIndex++]!.start;
    const push = (kind: BlockKind, start: number, end: number): Block => {
      const block: Block = { kind, start: base + start, end: base + end, page: page.number };
      blocks.push(block);
      return block;
    };
    /** Running text no paragraph accounts for: one block per part between blank lines. */
    const pushText = (from: number, to: number) => {
      const separator = new RegExp(BLANK_LINE.source, "g");
      const region = page.text.slice(from, to);
      let partStart = 0;
      for (let m = separator.exec(region); ; m = separator.exec(region)) {
        let start = from + partStart;
        let end = from + (m ? m.index : region.length);
        while (start < end && /\s/.test(page.text[start]!)) start++;
        while (end > start && /\s/.test(page.text[end - 1]!)) end--;
        if (end > start) push("text", start, end);
        if (!m) break;
        partStart = m.index + m[0].length;
      }
    };
    let cursor = 0;
    for (const paragraph of page.paragraphs) {
      const text = paragraphText(page.lines, paragraph, page.mode);
      if (!text.trim()) continue;
      const at = page.text.indexOf(text, cursor);
      if (at < 0) continue;
      if (at > cursor) pushText(cursor, at);
      cursor = at + text.length;
      if (paragraph.kind === "table") push("table", at, at + text.trimEnd().length);
      else if (paragraph.kind === "verbatim") push("code", at, at + text.trimEnd().length);
      else {
        const lead = text.length - text.trimStart().length;
        const trimmed = text.trim();
        const level = roleLevel(paragraph.role);
        const block = push(level ? "heading" : "text", at + lead, at + lead + trimmed.length);
        if (level) Object.assign(block, { level, heading: trimmed.replace(/\s+/gu, " ") });
      }
    }
    if (cursor < page.text.length) pushText(cursor, page.text.length);
    const last = blocks[blocks.length - 1];
    if (last?.page === page.number && page.continues) last.continues = true;
  }
  return blocks;
}
