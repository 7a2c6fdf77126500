/**
 * A document's result as the archive's rows, and the two hashes a re-run compares: the rows
 * hash covers everything the rows hold (an unchanged document is left as it is, rowids and
 * all), the config hash the settings that shaped them (extraction mode, tokenizer and chunk
 * limits, archive schema), so rows made under other settings can be found.
 */
import { createHash } from "node:crypto";
import type { Dehyphenation, DocumentResult, PageRecord, TextFormat } from "../../core/records.js";
import { chunksFormat, documentViewText } from "../../text/document-view.js";
import { cjkIndexText } from "./cjk-bigrams.js";
import { documentStatus, pageFlags, pageFurniture, pageLabel } from "../../text/page-facts.js";

/**
 * Bumped when the tables change shape, with a migration from the version before
 * (archive-schema.ts). 2: document_id, rows_hash, document_row; 3: `pages.facts`; 4: `pages.ocr`;
 * 5: `documents.path` and `chunks.cjk` (the CJK bigram column of the full-text index); 6: prefix
 * indexes, the ranking bounds (`impact_blocks`, `term_impacts`) and the `chunks_filter` and
 * `pages_offsets` indexes; 7: `pages.format`, `chunks.headings_inside` and `chunks.running_titles`.
 */
export const ARCHIVE_SCHEMA_VERSION = 8;

export interface DocumentRow {
  uri: string;
  /** Where the file is under the source's root ("/" between names), when the source says. */
  path: string | null;
  /** sha256 of the document's bytes; null when they could not be read. */
  document_id: string | null;
  title: string | null;
  pages: number | null;
  status: "ok" | "scan" | "failed";
  error_code: string | null;
  error: string | null;
  /** JSON array of { code, message, pages? }. */
  warnings: string;
  chunk_count: number;
  config_hash: string;
  /** Hash of every row the archive holds for the document: an unchanged document is left as it is. */
  rows_hash: string;
}

export interface PageRow {
  number: number;
  label: string | null;
  text: string;
  /** Where the page's text sits in the document text chunk offsets point into; null for a page without text. */
  char_start: number | null;
  char_end: number | null;
  mode: string;
  /** The view `text` is in: `plain`, or `markdown` when the document's chunks are Markdown. */
  format: TextFormat;
  /** JSON array of flag names. */
  flags: string;
  /** JSON of the page's furniture record, when a stage left one. */
  furniture: string | null;
  /** JSON of {@link PageFacts}: how the page's text was made, for a person checking it. */
  facts: string;
  /** JSON of how the ocr stage read the page (engine, version, languages, dpi, confidence…); null for the PDF's own text. */
  ocr: string | null;
  /** The page's size as displayed, in points (null when unknown). */
  width: number | null;
  height: number | null;
}

/**
 * What the stages decided about a page, kept so that a person can see why its text came out as
 * it did (`pagestream serve` shows them as badges). Fields a stage did not set are left out.
 */
export interface PageFacts {
  /** `structure` (the tagged PDF's order) or `geometry` (rebuilt from positions). */
  orderSource: PageRecord["orderSource"];
  orderReason: string;
  /** Most columns side by side, or "uncertain". */
  columns: PageRecord["columns"];
  /** Characters outside every tagged element, on a tagged page. */
  untaggedGlyphs: number;
  /** Images painted, when extraction looked. */
  images?: number;
  /** All text drawn invisibly: an OCR layer over a scan. */
  invisibleText?: true;
  /** Why flag-scans flagged the page: image_only, no_text, stray_text. */
  scanReason?: string;
  /** Share of characters that did not map to Unicode, when high. */
  garbled?: number;
  /** Text flag-scans took off a scanned page. */
  strayText?: string;
  /** Every line-end hyphen dehyphenate decided, and its evidence. */
  dehyphenated?: Dehyphenation[];
  /** The page's last paragraph goes on at the top of the next page. */
  continues?: true;
}

export function pageFacts(page: PageRecord): PageFacts {
  return {
    orderSource: page.orderSource,
    orderReason: page.orderReason,
    columns: page.columns,
    untaggedGlyphs: page.untaggedGlyphs,
    ...(page.images !== undefined ? { images: page.images } : {}),
    ...(page.invisibleText ? { invisibleText: true as const } : {}),
    ...(page.scanReason !== undefined ? { scanReason: page.scanReason } : {}),
    ...(page.garbled !== undefined ? { garbled: page.garbled } : {}),
    ...(page.strayText !== undefined ? { strayText: page.strayText } : {}),
    ...(page.dehyphenated?.length ? { dehyphenated: page.dehyphenated.map(({ left, right, result, reason }) => ({ left, right, result, reason })) } : {}),
    ...(page.continues ? { continues: true as const } : {}),
  };
}


export interface ChunkRow {
  id: string;
  chunk_index: number;
  text: string;
  title: string;
  page_start: number;
  page_end: number;
  page_labels: string;
  char_start: number;
  char_end: number;
  prefix_chars: number;
  token_count: number;
  headings: string;
  /** JSON array of the headings that start inside the chunk. */
  headings_inside: string;
  /** JSON array of the running titles of its pages. */
  running_titles: string;
  flags: string;
  /** The text's CJK words as bigrams, for the full-text index ("" without CJK). */
  cjk: string;
  /** JSON array of where its text stands on its pages (ChunkRecord.boxes). */
  boxes: string;
}

export interface DocumentRows {
  document: DocumentRow;
  pages: PageRow[];
  chunks: ChunkRow[];
}

export function documentRows(result: DocumentResult): DocumentRows {
  const warnings = JSON.stringify(result.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.pages ? { pages: w.pages } : {}) })));
  if (result.status === "failed") {
    const document = {
      uri: result.uri,
      path: result.path ?? null,
      document_id: result.error.documentId ?? null,
      title: null,
      pages: null,
      status: "failed" as const,
      error_code: result.error.code,
      error: result.error.message,
      warnings,
      chunk_count: 0,
      config_hash: hash({ schema: ARCHIVE_SCHEMA_VERSION }),
    };
    return { document: { ...document, rows_hash: hash(document) }, pages: [], chunks: [] };
  }
  const title = result.document.title ?? null;
  // Pages are stored in the view the chunks were cut from, so that chunk offsets point into them.
  const format = chunksFormat(result.chunks);
  const view = documentViewText(result.pages, format);
  const spans = new Map(view.pages.map((s) => [s.number, s]));
  const pages: PageRow[] = result.pages.map((page) => {
    const furniture = pageFurniture(page);
    const span = spans.get(page.number);
    return {
      number: page.number,
      label: pageLabel(page) ?? null,
      text: span ? view.text.slice(span.start, span.end) : "",
      char_start: span?.start ?? null,
      char_end: span?.end ?? null,
      mode: page.mode,
      format,
      flags: JSON.stringify(pageFlags(page)),
      furniture: furniture === undefined ? null : JSON.stringify(furniture),
      facts: JSON.stringify(pageFacts(page)),
      ocr: page.ocr ? JSON.stringify(page.ocr) : null,
      width: page.width || null,
      height: page.height || null,
    };
  });
  const chunks: ChunkRow[] = result.chunks.map((c) => ({
    id: c.id,
    chunk_index: c.index,
    text: c.text,
    title: title ?? "",
    page_start: c.pageStart,
    page_end: c.pageEnd,
    page_labels: JSON.stringify(c.pageLabels),
    char_start: c.charStart,
    char_end: c.charEnd,
    prefix_chars: c.prefix.length,
    token_count: c.tokenCount,
    headings: JSON.stringify(c.headings),
    // A chunk stage written before these fields leaves them out: stored as none.
    headings_inside: JSON.stringify(c.headingsInside ?? []),
    running_titles: JSON.stringify(c.runningTitles ?? []),
    flags: JSON.stringify(c.flags),
    cjk: cjkIndexText(c.text),
    boxes: JSON.stringify(c.boxes ?? []),
  }));
  const first = result.chunks[0];
  const config = {
    schema: ARCHIVE_SCHEMA_VERSION,
    modes: [...new Set(result.pages.map((p) => p.mode))].sort(),
    chunking: first ? { tokenizer: first.tokenizer, encoding: first.encoding, format, ...first.limits } : null,
  };
  const document = {
    uri: result.uri,
    path: result.path ?? null,
    document_id: result.document.documentId,
    title,
    pages: result.document.pageCount,
    status: documentStatus(result.document),
    error_code: null,
    error: null,
    warnings,
    chunk_count: chunks.length,
    config_hash: hash(config),
  };
  return { document: { ...document, rows_hash: rowsHash(document, pages, chunks) }, pages, chunks };
}

function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

/**
 * `hash({ document, pages, chunks })`, the same bytes hashed a row at a time: the JSON of a whole
 * document (megabytes) is never one string.
 */
export function rowsHash(document: object, pages: readonly object[], chunks: readonly object[]): string {
  const sha = createHash("sha256").update(`{"document":${JSON.stringify(document)},"pages":[`);
  pages.forEach((page, i) => sha.update(i === 0 ? JSON.stringify(page) : "," + JSON.stringify(page)));
  sha.update('],"chunks":[');
  chunks.forEach((chunk, i) => sha.update(i === 0 ? JSON.stringify(chunk) : "," + JSON.stringify(chunk)));
  return sha.update("]}").digest("hex");
}
