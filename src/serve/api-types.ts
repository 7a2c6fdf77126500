/**
 * The JSON the server's API answers with, shared by the server and the page (the page imports
 * these as types only). They are written in camelCase, as TypeScript is; on the wire every key
 * is snake_case (`document_id`, `page_count`: src/core/wire-keys.ts), converted in one hook of
 * the server and back in the page's api.ts. Every text from a PDF travels as a plain string and is put on the page
 * as text, never as markup; highlights travel as offsets.
 */

/** Every error answer: a code from a closed set (the HTTP status says the class) and a sentence. */
export interface ApiError {
  error: { code: string; message: string };
}

/** GET /api/archive: what the page needs before the first search. */
export interface ArchiveInfo {
  /** The archive file, as given on the command line. */
  archive: string;
  documents: number;
  failedDocuments: number;
  pages: number;
  chunks: number;
  /** Folders that hold documents, relative to the source root, for the folder filter. */
  folders: string[];
  /** The archive has pages or chunks with these flags (scan, ocr, ocr_layer…), for the filters offered. */
  flags: string[];
  /** The archive has a trigram index (substring search). */
  substring: boolean;
  /** Oldest and newest `ingested_at`, ISO 8601. */
  ingested: { first: string; last: string } | null;
  /** The source the originals are read from ("folder", "s3"), or null without a pipeline. */
  source: string | null;
  /** A dropped PDF can be saved into the source folder for the next run, by this page. */
  canAdd: boolean;
  /** It could, but this page was not opened with the server's token (the address `pagestream serve` printed). */
  addNeedsToken: boolean;
  /** Largest PDF the page may drop, in bytes. */
  maxUploadBytes: number;
  /** The query limits, for the help text. */
  queryLimits: { maxChars: number; maxTerms: number; minPrefixChars: number };
}

export interface SearchHitJson {
  documentId: string;
  /** The chunk's id: `chunk=` of the document's address lands on it. */
  chunkId: string;
  /** The file name. */
  name: string;
  /** Where the document lives, relative to the source root when it is inside it. */
  path: string;
  title: string | null;
  /** First and last page of the matched text. */
  pages: [number, number];
  pageLabels: string[];
  /** Where the hit's chunk stands on those pages, in points from the displayed page's top-left corner. */
  boxes: { page: number; x0: number; y0: number; x1: number; y1: number }[];
  snippet: string;
  /** [start, end) of each match in `snippet`. */
  highlights: [number, number][];
  flags: string[];
  score: number;
}

/** A document among the hits: its best hit(s), and what else of it matched. */
export interface DocumentHitsJson {
  documentId: string;
  name: string;
  path: string;
  title: string | null;
  /** Its best hit first, then (at most one) further hit that shows a match the first does not. */
  hits: SearchHitJson[];
  /** The document's other matches (none of `hits` holds them): how many, and their pages. */
  more: { matches: number; pages: number[] };
}

/**
 * GET /api/search: hits grouped by document, documents in the order of their best hit, 10
 * documents a page; with `document`, that document's hits alone, 10 a page.
 */
export interface SearchResponse {
  query: string;
  groups: DocumentHitsJson[];
  /** The document searched in (`document=`), or null for the whole archive. */
  within: { documentId: string; name: string; title: string | null } | null;
  /** 1-based. */
  page: number;
  /** Documents a page (hits a page with `document`). */
  pageSize: number;
  more: boolean;
}

/** GET /api/documents: the archive's documents, newest first. */
export interface DocumentListResponse {
  total: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  documents: { documentId: string; name: string; path: string; title: string | null; pages: number | null; chunks: number; ingestedAt: string }[];
}

/** GET /api/examples: example queries made from the archive's own words (each finds something). */
export interface ExamplesResponse {
  queries: string[];
}

export interface FurnitureJson {
  header: string[];
  footer: string[];
  pageLabel?: string;
}

/** What the OCR stage records on a page it read (`pages.ocr`), when it ran. */
export interface OcrJson {
  engine?: string;
  version?: string;
  languages?: string[];
  dpi?: number;
  /** 0–100. */
  meanConfidence?: number;
  lowConfidenceWords?: number;
}

/** pages.facts (see src/sinks/sqlite/document-rows.ts PageFacts). */
export interface FactsJson {
  orderSource: "geometry" | "structure";
  orderReason: string;
  columns: number | "uncertain";
  untaggedGlyphs: number;
  images?: number;
  invisibleText?: true;
  scanReason?: string;
  garbled?: number;
  strayText?: string;
  dehyphenated?: { left: string; right: string; result: string; reason: string }[];
  continues?: true;
}

export interface PageJson {
  number: number;
  label: string | null;
  /** The page's text as archived (or, for a dropped PDF, in the pipeline's mode). */
  text: string;
  mode: string;
  flags: string[];
  furniture: FurnitureJson | null;
  /** null: the archive was written before facts were kept. */
  facts: FactsJson | null;
  ocr: OcrJson | null;
  /** The document's warnings that name this page. */
  warnings: { code: string; message: string }[];
  /** [start, end) of the query's matches in `text`. */
  matches: [number, number][];
}

export type OriginalState = { available: true } | { available: false; reason: string };

/** GET /api/documents/:id */
export interface DocumentResponse {
  documentId: string;
  name: string;
  path: string;
  /** Every uri the archive holds these bytes at (the same file in two places). */
  paths: string[];
  title: string | null;
  pageCount: number | null;
  status: string;
  ingestedAt: string;
  warnings: { code: string; message: string; pages?: number[] }[];
  pages: PageJson[];
  original: OriginalState;
  /** With `chunk=`: the hit the page lands on. */
  focus: FocusJson | null;
}

/** A hit in its document: where its chunk stands on the pages, to draw and scroll to. */
export interface FocusJson {
  chunkId: string;
  /** The chunk's column pieces, in points from the displayed page's top-left corner. */
  boxes: { page: number; x0: number; y0: number; x1: number; y1: number }[];
  /** The chunk's own text on each page: [start, end) in that page's `text`. */
  ranges: { page: number; start: number; end: number }[];
}

/** POST /api/extract: a dropped PDF through the pipeline's text stages, nothing stored. */
export interface ExtractResponse {
  name: string;
  documentId: string;
  title: string | null;
  pageCount: number;
  tagged: boolean;
  status: string;
  warnings: { code: string; message: string; pages?: number[] }[];
  pages: (PageJson & { reflow: string; preserve: string })[];
}

/** POST /api/add: a dropped PDF saved into the source folder. */
export interface AddResponse {
  /** Where it was saved, relative to the source root. */
  saved: string;
}
