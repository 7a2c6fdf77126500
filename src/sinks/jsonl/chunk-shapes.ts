/**
 * A chunk as one line of the chunk file, in the shape a loader takes as it is:
 *
 *   flat        { id, document_id, chunk_index, text, metadata }   OpenAI Batch, Cohere, Qdrant, Pinecone, Chroma
 *   langchain   { pageContent, metadata, id }                      LangChain.js: new Document(line)
 *   llamaindex  { id_, text, metadata }                            LlamaIndex.TS: new Document(line)
 *
 * The metadata is the same in every shape (langchain and llamaindex carry `document_id` and
 * `chunk_index` in it, having no place of their own for them): flat — strings, numbers and lists
 * of strings — never null and never an empty list. Chroma refuses an empty list (1,173 of 1,244
 * records of a real run had one) and a null; a missing title, heading, label or flag is left out.
 * The chunk's boxes (where its text stands on its pages) are a JSON string for the same reason.
 */
import type { ChunkRecord } from "../../core/records.js";

export const CHUNK_SHAPES = ["flat", "langchain", "llamaindex"] as const;
export type ChunkShape = (typeof CHUNK_SHAPES)[number];

export type MetadataValue = string | number | string[];

/** What a chunk line says besides the chunk itself: its document's title and its path under the source's root. */
export interface ChunkPlace {
  title?: string | undefined;
  path?: string | undefined;
}

/** What a chunk's metadata is made of, from a chunk record or from an archive's row. */
export interface ChunkMetadataFields {
  uri: string;
  path?: string | undefined;
  title?: string | null | undefined;
  pageStart: number;
  pageEnd: number;
  pageLabels: readonly string[];
  charStart: number;
  charEnd: number;
  prefixChars: number;
  tokenCount: number;
  /** Left out where unknown (an archive does not keep them). */
  tokenizer?: string | undefined;
  encoding?: string | undefined;
  textFormat: string;
  headings: readonly string[];
  headingsInside: readonly string[];
  runningTitles: readonly string[];
  flags: readonly string[];
  /** The boxes as JSON, "[]" or absent for none. */
  boxes?: string | undefined;
}

/** The chunk's metadata, keys in a fixed order, empty lists and missing values left out. */
export function chunkMetadata(chunk: ChunkRecord, place: ChunkPlace): Record<string, MetadataValue> {
  return metadataOf({
    uri: chunk.uri,
    path: place.path,
    title: place.title,
    pageStart: chunk.pageStart,
    pageEnd: chunk.pageEnd,
    pageLabels: chunk.pageLabels,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    prefixChars: chunk.prefix.length,
    tokenCount: chunk.tokenCount,
    tokenizer: chunk.tokenizer,
    encoding: chunk.encoding,
    textFormat: chunk.textFormat ?? "plain",
    headings: chunk.headings,
    // A chunk stage written before these fields leaves them out.
    headingsInside: chunk.headingsInside ?? [],
    runningTitles: chunk.runningTitles ?? [],
    flags: chunk.flags,
    ...(chunk.boxes?.length ? { boxes: JSON.stringify(chunk.boxes) } : {}),
  });
}

/** The metadata of a chunk from its fields: one key order for the jsonl sink and an archive's export. */
export function metadataOf(f: ChunkMetadataFields): Record<string, MetadataValue> {
  const list = (key: string, values: readonly string[]) => (values.length ? { [key]: [...values] } : {});
  return {
    source_uri: f.uri,
    ...(f.path !== undefined ? { path: f.path } : {}),
    ...(f.title ? { title: f.title } : {}),
    page_start: f.pageStart,
    page_end: f.pageEnd,
    ...list("page_labels", f.pageLabels),
    char_start: f.charStart,
    char_end: f.charEnd,
    prefix_chars: f.prefixChars,
    token_count: f.tokenCount,
    ...(f.tokenizer !== undefined ? { tokenizer: f.tokenizer } : {}),
    ...(f.encoding !== undefined ? { encoding: f.encoding } : {}),
    text_format: f.textFormat,
    ...list("headings", f.headings),
    ...list("headings_inside", f.headingsInside),
    ...list("running_titles", f.runningTitles),
    ...list("flags", f.flags),
    // Nested values are refused by flat stores (Chroma): the boxes travel as a JSON string.
    ...(f.boxes !== undefined && f.boxes !== "[]" ? { boxes: f.boxes } : {}),
  };
}

/** The line of a chunk in `shape`. */
export function chunkLine(chunk: ChunkRecord, place: ChunkPlace, shape: ChunkShape = "flat"): object {
  return shapeChunk({ id: chunk.id, document_id: chunk.documentId, chunk_index: chunk.index, text: chunk.text, metadata: chunkMetadata(chunk, place) }, shape);
}

/** A chunk line as the flat shape has it: the form every shape is made from and read back into. */
export interface FlatChunk {
  id: string;
  document_id: string;
  chunk_index: number;
  text: string;
  metadata: Record<string, MetadataValue>;
}

export function shapeChunk(chunk: FlatChunk, shape: ChunkShape): object {
  const { id, document_id, chunk_index, text, metadata } = chunk;
  switch (shape) {
    case "flat":
      return { id, document_id, chunk_index, text, metadata };
    case "langchain":
      return { pageContent: text, metadata: { document_id, chunk_index, ...metadata }, id };
    case "llamaindex":
      // LlamaIndex puts a node's metadata into the text it embeds and hands the LLM: the boxes
      // are coordinates for a citation, not words about the text.
      return { id_: id, text, metadata: { document_id, chunk_index, ...metadata }, ...(metadata.boxes !== undefined ? { excludedEmbedMetadataKeys: ["boxes"], excludedLlmMetadataKeys: ["boxes"] } : {}) };
  }
}

/** A chunk line of any shape back in the flat shape; undefined for a line that is not a chunk (a tombstone). */
export function flatChunk(line: Record<string, unknown>): FlatChunk | undefined {
  if (typeof line.type === "string") return undefined;
  if (typeof line.pageContent === "string" || typeof line.id_ === "string") {
    const { document_id, chunk_index, ...metadata } = line.metadata as Record<string, MetadataValue>;
    const id = (line.id ?? line.id_) as string;
    const text = (line.pageContent ?? line.text) as string;
    return { id, document_id: document_id as string, chunk_index: chunk_index as number, text, metadata };
  }
  return line as unknown as FlatChunk;
}
