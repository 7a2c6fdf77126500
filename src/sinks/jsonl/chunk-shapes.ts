/**
 * A chunk as one line of the chunk file, in the shape a loader takes as it is:
 *
 *   flat              { id, document_id, chunk_index, text, metadata }   OpenAI Batch, Cohere, Qdrant, Pinecone, Chroma, LanceDB
 *   langchain         { pageContent, metadata, id }                      LangChain.js: new Document(line)
 *   langchain_python  { page_content, metadata, id }                     Python LangChain: Document(**line)
 *   llamaindex        { id_, text, metadata, excludedEmbedMetadataKeys,  LlamaIndex.TS: new Document(line)
 *                       excludedLlmMetadataKeys }
 *
 * The metadata is the same in every shape (langchain, langchain_python and llamaindex carry
 * `document_id` and `chunk_index` in it, having no place of their own for them): flat — strings,
 * numbers and lists of strings — never null. By default never an empty list either: Chroma refuses
 * an empty list (1,173 of 1,244 records of a real run had one) and a null, so a missing title,
 * heading, label or flag is left out. With stable keys every key is there, an empty one as "" or
 * [] (`METADATA_FIELDS`), for typed stores (LanceDB) whose schema is fixed by the first batch.
 * The chunk's boxes (where its text stands on its pages) are a JSON string for the same reasons.
 * chunk.schema.json (chunk-schema.ts) describes every shape.
 */
import type { ChunkRecord } from "../../core/records.js";

export const CHUNK_SHAPES = ["flat", "langchain", "langchain_python", "llamaindex"] as const;
export type ChunkShape = (typeof CHUNK_SHAPES)[number];

export type MetadataValue = string | number | string[];

/** How a chunk's metadata is written: what a typed store needs, or what Chroma takes. */
export interface MetadataLayout {
  /** Every key on every line, an empty one as "" or []; off: empty values are left out. */
  stableKeys?: boolean | undefined;
}

/**
 * The metadata keys, in the order a line has them: the type of each (`strings` is a list of
 * strings; `integer` is always a whole number), the value it has when empty (with stable keys;
 * left out otherwise), and what it says. chunk.schema.json is made from this table.
 */
export const METADATA_FIELDS = [
  { key: "source_uri", type: "string", description: "Where the document was read from (file:// or s3:// URI)." },
  { key: "path", type: "string", empty: "", description: "The document's path under the source's root; absent (\"\" with stable keys) when the source gives none." },
  { key: "title", type: "string", empty: "", description: "The document's title; absent (\"\" with stable keys) when it has none." },
  { key: "page_start", type: "integer", description: "The page the chunk starts on (1-based)." },
  { key: "page_end", type: "integer", description: "The page the chunk ends on (1-based)." },
  { key: "page_labels", type: "strings", empty: [], description: "The printed labels (iv, 12, A-3) of the pages the chunk touches, where the pages carry one." },
  { key: "char_start", type: "integer", description: "Where the chunk's text starts in the document's text (in text_format; UTF-16 code units), overlap included, prefix not." },
  { key: "char_end", type: "integer", description: "Where the chunk's text ends in the document's text (exclusive)." },
  { key: "prefix_chars", type: "integer", description: "Characters at the start of the text that are not from char_start on: the header row of a table continued from the chunk before; 0 otherwise." },
  { key: "token_count", type: "integer", description: "Tokens in the text, by tokenizer and encoding." },
  { key: "tokenizer", type: "string", empty: "", description: "The tokenizer the chunk was counted with; absent (\"\" with stable keys) in an archive's export." },
  { key: "encoding", type: "string", empty: "", description: "The tokenizer's encoding (cl100k_base, o200k_base); absent (\"\" with stable keys) in an archive's export." },
  { key: "text_format", type: "string", description: "The view the text was cut from: plain or markdown." },
  { key: "headings", type: "strings", empty: [], description: "The headings in force where the chunk starts, outermost first." },
  { key: "headings_inside", type: "strings", empty: [], description: "The headings that start inside the chunk." },
  { key: "running_titles", type: "strings", empty: [], description: "The running titles of the chunk's pages: their header and footer lines without page numbers." },
  { key: "flags", type: "strings", empty: [], description: "Conditions of the source text a consumer may care about (scan, ocr, columns_uncertain, ...)." },
  { key: "boxes", type: "string", empty: "[]", description: "Where the text stands on its pages, as a JSON string (flat stores take no nested values): [{\"page\":1,\"x0\":..,\"y0\":..,\"x1\":..,\"y1\":..}, ...], one rectangle per column piece, in reading order." },
] as const satisfies readonly MetadataField[];

export interface MetadataField {
  key: string;
  type: "string" | "integer" | "strings";
  /** The value with stable keys when there is none; no `empty`: the key is always there. */
  empty?: string | readonly string[];
  description: string;
}

/**
 * The metadata LlamaIndex may put in front of the text: the LLM gets the keys that say what the
 * text is and where to cite it; the embedding model gets the text alone, which the chunk stage
 * sized to its max_tokens (with every key, 129–240 tokens were added and most inputs of a
 * 512-token model went over; with only title and headings, a full chunk still does).
 */
const LLM_METADATA_KEYS: readonly string[] = ["path", "title", "page_start", "page_end", "page_labels", "headings"];
const ALL_METADATA_KEYS: readonly string[] = ["document_id", "chunk_index", ...METADATA_FIELDS.map((f) => f.key)];
export const LLAMAINDEX_EXCLUDED_EMBED_KEYS: readonly string[] = ALL_METADATA_KEYS;
export const LLAMAINDEX_EXCLUDED_LLM_KEYS: readonly string[] = ALL_METADATA_KEYS.filter((k) => !LLM_METADATA_KEYS.includes(k));

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

/**
 * The metadata with every key of METADATA_FIELDS, in their order, a missing one as its empty
 * value: a typed store (LanceDB) fixes its schema from the first batch and refuses a key it
 * has not seen (`Found field not in schema: metadata.title`), and cannot type an empty list.
 */
export function withStableKeys(metadata: Readonly<Record<string, MetadataValue>>): Record<string, MetadataValue> {
  const stable: Record<string, MetadataValue> = {};
  for (const field of METADATA_FIELDS as readonly MetadataField[]) {
    const value = metadata[field.key] ?? (Array.isArray(field.empty) ? [...field.empty] : (field.empty as string | undefined));
    if (value !== undefined) stable[field.key] = value;
  }
  // Keys this version does not know (a line written by another) keep their place at the end.
  for (const [key, value] of Object.entries(metadata)) if (!(key in stable)) stable[key] = value;
  return stable;
}

/** The line of a chunk in `shape`. */
export function chunkLine(chunk: ChunkRecord, place: ChunkPlace, shape: ChunkShape = "flat", layout: MetadataLayout = {}): object {
  return shapeChunk({ id: chunk.id, document_id: chunk.documentId, chunk_index: chunk.index, text: chunk.text, metadata: chunkMetadata(chunk, place) }, shape, layout);
}

/** A chunk line as the flat shape has it: the form every shape is made from and read back into. */
export interface FlatChunk {
  id: string;
  document_id: string;
  chunk_index: number;
  text: string;
  metadata: Record<string, MetadataValue>;
}

export function shapeChunk(chunk: FlatChunk, shape: ChunkShape, layout: MetadataLayout = {}): object {
  const { id, document_id, chunk_index, text } = chunk;
  const metadata = layout.stableKeys ? withStableKeys(chunk.metadata) : chunk.metadata;
  switch (shape) {
    case "flat":
      return { id, document_id, chunk_index, text, metadata };
    case "langchain":
      return { pageContent: text, metadata: { document_id, chunk_index, ...metadata }, id };
    case "langchain_python":
      return { page_content: text, metadata: { document_id, chunk_index, ...metadata }, id };
    case "llamaindex":
      // LlamaIndex puts a node's metadata into the text it embeds and hands the LLM, unless told
      // which keys to leave out: ids, offsets, counts and boxes are not words about the text.
      return {
        id_: id,
        text,
        metadata: { document_id, chunk_index, ...metadata },
        excludedEmbedMetadataKeys: LLAMAINDEX_EXCLUDED_EMBED_KEYS,
        excludedLlmMetadataKeys: LLAMAINDEX_EXCLUDED_LLM_KEYS,
      };
  }
}

/** A chunk line of any shape back in the flat shape; undefined for a line that is not a chunk (a tombstone). */
export function flatChunk(line: Record<string, unknown>): FlatChunk | undefined {
  if (typeof line.type === "string") return undefined;
  if (typeof line.pageContent === "string" || typeof line.page_content === "string" || typeof line.id_ === "string") {
    const { document_id, chunk_index, ...metadata } = line.metadata as Record<string, MetadataValue>;
    const id = (line.id ?? line.id_) as string;
    const text = (line.pageContent ?? line.page_content ?? line.text) as string;
    return { id, document_id: document_id as string, chunk_index: chunk_index as number, text, metadata };
  }
  return line as unknown as FlatChunk;
}
