/**
 * One document's pages → its chunk records. Pure: the tokenizer is passed in, nothing is read
 * or written. The steps live in their own modules: document-text (what offsets point into),
 * blocks and headings (what each part of the text is), pieces (where it may be cut, and how
 * well), packing (which cuts make the chunks), page-facts (labels and flags), chunk-id.
 */
import type { ChunkRecord, PageRecord } from "../../core/records.js";
import { documentBlocks, type Block } from "./blocks.js";
import { chunkId } from "./chunk-id.js";
import { documentText, pageAt } from "../../text/document-text.js";
import { HeadingPath } from "./headings.js";
import { packChunks, type ChunkLimits, type PackedChunk } from "./packing.js";
import { pageFlags, pageLabel } from "../../text/page-facts.js";
import { documentPieces } from "./pieces.js";
import type { Tokenizer } from "./tokenizer.js";

export interface ChunkInput {
  /** sha256 of the document's bytes: with the chunk index, it makes the chunk id. */
  documentId: string;
  uri: string;
  pages: readonly PageRecord[];
}

export function chunkDocument(input: ChunkInput, limits: ChunkLimits, tokenizer: Tokenizer): ChunkRecord[] {
  const doc = documentText(input.pages);
  if (doc.pages.length === 0) return [];
  const blocks = documentBlocks(input.pages, doc);
  const pieces = documentPieces(doc.text, blocks, tokenizer, { text: limits.maxTokens - limits.overlapTokens, whole: limits.maxTokens });
  const packed = packChunks(doc.text, pieces, tokenizer, limits, rowStarts(doc.text, blocks));
  const headings = headingPaths(doc.text, blocks, packed);
  const frozenLimits = Object.freeze({ ...limits });
  return packed.map((chunk, index) => {
    const pageStart = pageAt(doc.pages, chunk.start).number;
    const pageEnd = pageAt(doc.pages, chunk.end - 1).number;
    const spanned = input.pages.filter((p) => p.number >= pageStart && p.number <= pageEnd);
    return {
      type: "chunk",
      id: chunkId(input.documentId, input.uri, index),
      documentId: input.documentId,
      uri: input.uri,
      index,
      text: chunk.text,
      prefix: chunk.prefix,
      pageStart,
      pageEnd,
      pageLabels: spanned.flatMap((p) => pageLabel(p) ?? []),
      charStart: chunk.start,
      charEnd: chunk.end,
      tokenCount: chunk.tokens,
      tokenizer: tokenizer.name,
      encoding: tokenizer.encoding,
      limits: frozenLimits,
      headings: headings[index]!,
      flags: [...new Set(spanned.flatMap(pageFlags))].sort(),
    };
  });
}

/**
 * The heading path of each chunk: the headings in force where its own text starts, and the
 * headings that open it (a chunk that starts with "2. Finance" is under "2. Finance").
 */
function headingPaths(text: string, blocks: readonly Block[], chunks: readonly PackedChunk[]): string[][] {
  const path = new HeadingPath();
  let next = 0;
  const enter = (block: Block) => {
    if (block.kind === "heading") path.enter(block.level ?? 6, text.slice(block.start, block.end).replace(/\s+/g, " "));
  };
  return chunks.map((chunk) => {
    while (next < blocks.length && blocks[next]!.end <= chunk.coreStart) enter(blocks[next++]!);
    // Headings that open the chunk (and the block the chunk starts inside, when it is one).
    while (next < blocks.length && blocks[next]!.kind === "heading" && blocks[next]!.start < chunk.end) enter(blocks[next++]!);
    return path.current();
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
