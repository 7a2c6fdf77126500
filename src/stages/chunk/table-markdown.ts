/**
 * Tables as Markdown for chunks (`table_format: markdown`). The document text prints a table row
 * as its cells separated by tabs; many embedding and RAG setups want `| a | b |` rows with a
 * separator under the header. The chunker then works on a view of the document text in which
 * every table row is a Markdown row: chunks are cut, counted and overlapped in that view, so
 * max_tokens holds for the text a chunk really carries, and each chunk's offsets are mapped back
 * to the document text (a chunk still names the span of the document it comes from).
 */
import type { Block } from "./blocks.js";

export interface TextView {
  /** The text chunks are cut from. */
  text: string;
  /** The blocks, located in `text`. */
  blocks: Block[];
  /** The document-text offset of a view offset: the start of a row for a start, its end for an end. */
  toDocument(offset: number, side: "start" | "end"): number;
}

/** A stretch of the view: the same characters as the document text, or a table row rewritten. */
interface Segment {
  viewStart: number;
  viewEnd: number;
  docStart: number;
  docEnd: number;
  same: boolean;
}

/** The Markdown separator row under a table's header: what a chunk continuing the table repeats with it. */
export const MARKDOWN_SEPARATOR = /^\|(?: --- \|)+$/;

export function markdownTables(text: string, blocks: readonly Block[]): TextView {
  const segments: Segment[] = [];
  let view = "";
  const copy = (from: number, to: number) => {
    if (to <= from) return;
    segments.push({ viewStart: view.length, viewEnd: view.length + (to - from), docStart: from, docEnd: to, same: true });
    view += text.slice(from, to);
  };
  const rewrite = (from: number, to: number, row: string) => {
    segments.push({ viewStart: view.length, viewEnd: view.length + row.length, docStart: from, docEnd: to, same: false });
    view += row;
  };
  let cursor = 0;
  for (const block of blocks) {
    if (block.kind !== "table") continue;
    copy(cursor, block.start);
    const lines = lineRanges(text, block.start, block.end);
    const columns = Math.max(...lines.map(([a, b]) => text.slice(a, b).split("\t").length));
    lines.forEach(([from, to], i) => {
      if (i > 0) copy(lines[i - 1]![1], from);
      rewrite(from, to, markdownRow(text.slice(from, to), columns));
      if (i === 0) rewrite(to, to, "\n" + markdownRow(Array(columns).fill("---").join("\t"), columns));
    });
    cursor = block.end;
  }
  copy(cursor, text.length);
  const toView = (offset: number) => {
    const s = segments[search(segments, (g) => g.docEnd >= offset && (g.docEnd > offset || g.same))] ?? segments[segments.length - 1];
    if (!s) return offset;
    if (s.same) return s.viewStart + (offset - s.docStart);
    return offset <= s.docStart ? s.viewStart : s.viewEnd;
  };
  return {
    text: view,
    blocks: blocks.map((b) => ({ ...b, start: toView(b.start), end: toView(b.end) })),
    toDocument(offset, side) {
      const s = segments[search(segments, (g) => g.viewEnd > offset || (g.viewEnd === offset && side === "end"))] ?? segments[segments.length - 1];
      if (!s) return offset;
      if (s.same) return s.docStart + (offset - s.viewStart);
      return side === "start" ? s.docStart : s.docEnd;
    },
  };
}

/** One table row (cells separated by tabs) as a Markdown row of `columns` cells. */
function markdownRow(line: string, columns: number): string {
  const cells = line.split("\t").map((c) => c.trim().replace(/\|/g, "\\|"));
  while (cells.length < columns) cells.push("");
  return `| ${cells.join(" | ")} |`;
}

/** [start, end) of each line of the block. */
function lineRanges(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let start = from;
  while (start < to) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > to) end = to;
    out.push([start, end]);
    start = end + 1;
  }
  return out;
}

/** The first segment for which `past` holds (they hold from some index on), or -1. */
function search(segments: readonly Segment[], past: (s: Segment) => boolean): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (past(segments[mid]!)) {
      found = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return found;
}
