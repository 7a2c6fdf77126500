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
import { markdownTables } from "./table-markdown.js";
import type { Tokenizer } from "./tokenizer.js";

export interface ChunkInput {
  /** sha256 of the document's bytes: with the chunk index, it makes the chunk id. */
  documentId: string;
  uri: string;
  pages: readonly PageRecord[];
}

/** How a chunk's text shows table rows: as the document text does (cells separated by tabs), or as Markdown rows. */
export type TableFormat = "tsv" | "markdown";

export function chunkDocument(input: ChunkInput, limits: ChunkLimits, tokenizer: Tokenizer, tableFormat: TableFormat = "tsv"): ChunkRecord[] {
  const doc = documentText(input.pages);
  if (doc.pages.length === 0) return [];
  const documentBlocksFound = documentBlocks(input.pages, doc);
  // Chunks are cut from the text they will carry: the document text, or a view of it with its tables as Markdown.
  const { text, blocks, toDocument } = tableFormat === "markdown" ? markdownTables(doc.text, documentBlocksFound) : { text: doc.text, blocks: documentBlocksFound, toDocument: (offset: number) => offset };
  const pieces = documentPieces(text, blocks, tokenizer, { text: limits.maxTokens - limits.overlapTokens, whole: limits.maxTokens });
  const packed = packChunks(text, pieces, tokenizer, limits, rowStarts(text, blocks));
  const headings = headingPaths(text, blocks, packed);
  const frozenLimits = Object.freeze({ ...limits });
  return packed.map((chunk, index) => {
    const charStart = toDocument(chunk.start, "start");
    const charEnd = toDocument(chunk.end, "end");
    const pageStart = pageAt(doc.pages, charStart).number;
    const pageEnd = pageAt(doc.pages, Math.max(charStart, charEnd - 1)).number;
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
      charStart,
      charEnd,
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
