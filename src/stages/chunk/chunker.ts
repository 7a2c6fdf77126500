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
  return chunkWindow(input, limits, tokenizer, textFormat, newChunkCursor()).chunks;
}

/**
 * Where the chunking of a document stands between two windows of its pages (a document read a
 * window at a time, src/core/stage-operators.ts): what the next window's chunks need to number
 * themselves and place their offsets in the document's text as if it were chunked whole.
 */
export interface ChunkCursor {
  /** Length of the document's text so far (the pages with text before the window, with their separators). */
  textEnd: number;
  /** The last page with text so far runs on into the next (`continues`): one space, not a blank line, before the next page's text. */
  joinNext: boolean;
  /** Chunks made so far: the index of the window's first chunk. */
  chunks: number;
  /** The headings in force at the end of the text so far. */
  headings: HeadingPath;
}

export function newChunkCursor(): ChunkCursor {
  return { textEnd: 0, joinNext: false, chunks: 0, headings: new HeadingPath() };
}

/**
 * One window of a document's pages → its chunks, numbered and placed (offsets into the whole
 * document's text) after those of the windows before, which `cursor` describes; returns the
 * cursor for the next window. A window boundary ends a chunk: no chunk spans two windows, and the
 * first chunk of a window has no overlap. A document of one window is chunked exactly as whole.
 */
export function chunkWindow(input: ChunkInput, limits: ChunkLimits, tokenizer: Tokenizer, textFormat: TextFormat, cursor: ChunkCursor): { chunks: ChunkRecord[]; cursor: ChunkCursor } {
  const view = documentView(input.pages, textFormat);
  if (view.pages.length === 0) return { chunks: [], cursor };
  const { text, blocks } = view;
  // Where this window's text starts in the document's text (document-text.ts joins pages so).
  const offset = cursor.textEnd > 0 ? cursor.textEnd + (cursor.joinNext ? 1 : 2) : 0;
  const pieces = documentPieces(text, blocks, tokenizer, { text: limits.maxTokens - limits.overlapTokens, whole: limits.maxTokens });
  const packed = packChunks(text, pieces, tokenizer, limits, rowStarts(text, blocks));
  const headings = chunkHeadings(blocks, packed, cursor.headings);
  const frozenLimits = Object.freeze({ ...limits });
  const boxesOf = spanBoxes(input.pages, text, view.pages, textFormat);
  const chunks = packed.map((chunk, at): ChunkRecord => {
    const index = cursor.chunks + at;
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
      charStart: offset + chunk.start,
      charEnd: offset + chunk.end,
      tokenCount: chunk.tokens,
      tokenizer: tokenizer.name,
      encoding: tokenizer.encoding,
      limits: frozenLimits,
      headings: headings[at]!.inForce,
      headingsInside: headings[at]!.inside,
      runningTitles: [...new Set(spanned.flatMap(runningTitles))],
      flags: [...new Set(spanned.flatMap(pageFlags))].sort(),
      boxes: boxesOf(chunk.start, chunk.end, pageStart, pageEnd),
    };
  });
  const lastPage = view.pages[view.pages.length - 1]!.number;
  const joinNext = input.pages.some((p) => p.number === lastPage && p.continues === true);
  return { chunks, cursor: { textEnd: offset + text.length, joinNext, chunks: cursor.chunks + chunks.length, headings: cursor.headings } };
}

/**
 * Each chunk's headings: the path in force where its text starts (every heading that starts at
 * or before that point, each closing the ones at its level or deeper), and the headings that
 * start inside it. A chunk that starts with a heading is under it. `path` holds the headings in
 * force before the blocks; it is left holding those in force after them.
 */
function chunkHeadings(blocks: readonly Block[], chunks: readonly PackedChunk[], path: HeadingPath): { inForce: string[]; inside: string[] }[] {
  const headings = blocks.filter((b) => b.kind === "heading");
  let entered = 0;
  let firstInside = 0;
  const result = chunks.map((chunk) => {
    while (entered < headings.length && headings[entered]!.start <= chunk.start) {
      const heading = headings[entered++]!;
      path.enter(heading.level ?? 6, heading.heading ?? "");
    }
    while (firstInside < headings.length && headings[firstInside]!.start < chunk.start) firstInside++;
    const inside: string[] = [];
    for (let i = firstInside; i < headings.length && headings[i]!.start < chunk.end; i++) inside.push(headings[i]!.heading ?? "");
    return { inForce: path.current(), inside };
  });
  // The headings after the last chunk's start are in force where the next window's text starts.
  while (entered < headings.length) path.enter(headings[entered]!.level ?? 6, headings[entered++]!.heading ?? "");
  return result;
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
