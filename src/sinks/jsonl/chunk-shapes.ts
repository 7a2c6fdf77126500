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

/** The chunk's metadata, keys in a fixed order, empty lists and missing values left out. */
export function chunkMetadata(chunk: ChunkRecord, place: ChunkPlace): Record<string, MetadataValue> {
  const list = (key: string, values: readonly string[]) => (values.length ? { [key]: [...values] } : {});
  return {
    source_uri: chunk.uri,
    ...(place.path !== undefined ? { path: place.path } : {}),
    ...(place.title ? { title: place.title } : {}),
    page_start: chunk.pageStart,
    page_end: chunk.pageEnd,
    ...list("page_labels", chunk.pageLabels),
    char_start: chunk.charStart,
    char_end: chunk.charEnd,
    prefix_chars: chunk.prefix.length,
    token_count: chunk.tokenCount,
    tokenizer: chunk.tokenizer,
    encoding: chunk.encoding,
    text_format: chunk.textFormat ?? "plain",
    ...list("headings", chunk.headings),
    // A chunk stage written before these fields leaves them out.
    ...list("headings_inside", chunk.headingsInside ?? []),
    ...list("running_titles", chunk.runningTitles ?? []),
    ...list("flags", chunk.flags),
    // Nested values are refused by flat stores (Chroma): the boxes travel as a JSON string.
    ...(chunk.boxes?.length ? { boxes: JSON.stringify(chunk.boxes) } : {}),
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
