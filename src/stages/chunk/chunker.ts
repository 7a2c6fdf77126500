/**
 * One document's pages → its chunk records. Pure: the tokenizer is passed in, nothing is read
 * or written. The steps live in their own modules: document-view (the text in the chunk's format,
 * what offsets point into, and what each part of it is), headings, pieces (where it may be cut,
 * and how well), packing (which cuts make the chunks), page-facts (labels, flags, running
 * titles), chunk-id.
 */
import type { ChunkRecord, PageRecord } from "../../core/records.js";
import { chunkId } from "./chunk-id.js";
import { pageAt } from "../../text/document-text.js";
import { documentView, type Block, type TextFormat } from "../../text/document-view.js";
import { HeadingPath } from "./headings.js";
import { packChunks, type ChunkLimits, type PackedChunk } from "./packing.js";
import { pageFlags, pageLabel, runningTitles } from "../../text/page-facts.js";
import { documentPieces } from "./pieces.js";
import { spanBoxes } from "../../text/text-boxes.js";
import type { Tokenizer } from "./tokenizer.js";

export interface ChunkInput {
  /** sha256 of the document's bytes: with the chunk index, it makes the chunk id. */
  documentId: string;
  uri: string;
  pages: readonly PageRecord[];
}

export function chunkDocument(input: ChunkInput, limits: ChunkLimits, tokenizer: Tokenizer, textFormat: TextFormat = "plain"): ChunkRecord[] {
  const view = documentView(input.pages, textFormat);
  if (view.pages.length === 0) return [];
  const { text, blocks } = view;
  const pieces = documentPieces(text, blocks, tokenizer, { text: limits.maxTokens - limits.overlapTokens, whole: limits.maxTokens });
  const packed = packChunks(text, pieces, tokenizer, limits, rowStarts(text, blocks));
  const headings = chunkHeadings(blocks, packed);
  const frozenLimits = Object.freeze({ ...limits });
  const boxesOf = spanBoxes(input.pages, text, view.pages, textFormat);
  return packed.map((chunk, index) => {
    const pageStart = pageAt(view.pages, chunk.start).number;
    const pageEnd = pageAt(view.pages, Math.max(chunk.start, chunk.end - 1)).number;
    const spanned = input.pages.filter((p) => p.number >= pageStart && p.number <= pageEnd);
    return {
      type: "chunk",
      id: chunkId(input.documentId, input.uri, index),
      documentId: input.documentId,
      uri: input.uri,
      index,
      text: chunk.text,
      prefix: chunk.prefix,
      textFormat,
      pageStart,
      pageEnd,
      pageLabels: spanned.flatMap((p) => pageLabel(p) ?? []),
      charStart: chunk.start,
      charEnd: chunk.end,
      tokenCount: chunk.tokens,
      tokenizer: tokenizer.name,
      encoding: tokenizer.encoding,
      limits: frozenLimits,
      headings: headings[index]!.inForce,
      headingsInside: headings[index]!.inside,
      runningTitles: [...new Set(spanned.flatMap(runningTitles))],
      flags: [...new Set(spanned.flatMap(pageFlags))].sort(),
      boxes: boxesOf(chunk.start, chunk.end, pageStart, pageEnd),
    };
  });
}

/**
 * Each chunk's headings: the path in force where its text starts (every heading that starts at
 * or before that point, each closing the ones at its level or deeper), and the headings that
 * start inside it. A chunk that starts with a heading is under it.
 */
function chunkHeadings(blocks: readonly Block[], chunks: readonly PackedChunk[]): { inForce: string[]; inside: string[] }[] {
  const headings = blocks.filter((b) => b.kind === "heading");
  const path = new HeadingPath();
  let entered = 0;
  let firstInside = 0;
  return chunks.map((chunk) => {
    while (entered < headings.length && headings[entered]!.start <= chunk.start) {
      const heading = headings[entered++]!;
      path.enter(heading.level ?? 6, heading.heading ?? "");
    }
    while (firstInside < headings.length && headings[firstInside]!.start < chunk.start) firstInside++;
    const inside: string[] = [];
    for (let i = firstInside; i < headings.length && headings[i]!.start < chunk.end; i++) inside.push(headings[i]!.heading ?? "");
    return { inForce: path.current(), inside };
  });
}

/** Where the rows of tables and the lines of code listings start (after the first), ascending. */
function rowStarts(text: string, blocks: readonly Block[]): number[] {
  const starts: number[] = [];
  for (const block of blocks) {
    if (block.kind !== "table" && block.kind !== "code") continue;
    for (let at = text.indexOf("\n", block.start); at >= 0 && at < block.end; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  }
  return starts;
}
