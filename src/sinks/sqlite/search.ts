/**
 * Searching an archive: the best chunks for a query by bm25, each with its document, its page
 * range, the pages of the matched text itself, and a snippet with the matches marked.
 *
 * Two queries per search, so that snippets and highlights are computed only for the hits shown:
 * the first ranks (FTS5 sorts by `rank` internally when nothing else filters), the second
 * fetches each hit's text. Overlapping chunks both hold the text they share; a hit whose match
 * is the same stretch of the same document as a better-ranked hit is left out.
 */
import type { Database } from "better-sqlite3";
import { FTS_TABLE, TRIGRAM_TABLE, tableExists } from "./archive-schema.js";
import { QueryError, toFtsQuery, toTrigramQuery } from "./fts-query.js";

export { QueryError } from "./fts-query.js";

export interface SearchOptions {
  /** Most hits to return. */
  limit: number;
  /** Only this document: its sha256, a prefix of it (8 hex digits or more), or its uri. */
  document?: string;
  /** Only documents whose uri starts with this. */
  pathPrefix?: string;
  /** Find the query as a literal substring, in the trigram index. */
  substring?: boolean;
  /** Only matches in text read by OCR from page images (`ocr`), or only matches in the PDFs' own text (`text`). */
  source?: "ocr" | "text";
}

export interface SearchHit {
  /** bm25 relevance: higher is better (SQLite's bm25(), negated). */
  score: number;
  documentId: string | null;
  uri: string;
  title: string | null;
  chunkId: string;
  chunkIndex: number;
  /** The chunk's pages. */
  pageStart: number;
  pageEnd: number;
  /** The pages of the matched text, first and last. */
  matchPages: [number, number];
  /** Printed labels of those pages, where the document shows them. */
  matchPageLabels: string[];
  /** A stretch of the chunk around the matches, white space collapsed; "…" where it was cut. */
  snippet: string;
  /** [start, end) of each match in `snippet`. */
  highlights: [number, number][];
  /** Present when the matched text was read by OCR from a page image: the pages so read and their mean confidence (0–100). */
  ocr?: { pages: number[]; meanConfidence: number };
}

export interface SearchResult {
  query: string;
  /** The expression handed to FTS5 MATCH. */
  match: string;
  hits: SearchHit[];
}

/** bm25 weights of the indexed columns: a word in the chunk's own text counts twice one in its document's title. */
const WEIGHTS: Record<string, string> = { [FTS_TABLE]: "bm25(1.0, 0.5)", [TRIGRAM_TABLE]: "bm25(1.0)" };
const SNIPPET_TOKENS = 24;
/** Candidates ranked per hit asked for when matches are filtered by where their text came from. */
const SOURCE_CANDIDATES = 10;
const START = "\u0001";
const END = "\u0002";

export function searchArchive(db: Database, query: string, options: SearchOptions): SearchResult {
  if (!tableExists(db, "archive_meta") || !tableExists(db, FTS_TABLE)) throw new QueryError("this file is not a pagestream archive (no archive_meta or full-text index)");
  const table = options.substring ? TRIGRAM_TABLE : FTS_TABLE;
  if (options.substring && !tableExists(db, TRIGRAM_TABLE)) {
    throw new QueryError("the archive has no trigram index for substring search: set `trigram: true` on its sqlite sink and run the pipeline again");
  }
  const match = options.substring ? toTrigramQuery(query) : toFtsQuery(query);
  const filters: string[] = [];
  const params: Record<string, unknown> = { match, weights: WEIGHTS[table], limit: options.limit * 3 };
  if (options.document !== undefined) {
    filters.push("(d.document_id = lower(@document) OR d.uri = @document OR (length(@document) >= 8 AND substr(d.document_id, 1, length(@document)) = lower(@document)))");
    params.document = options.document;
  }
  if (options.pathPrefix !== undefined) {
    filters.push("substr(d.uri, 1, length(@prefix)) = @prefix");
    params.prefix = options.pathPrefix;
  }
  // Whether a match is in OCR text is known per page, once the match is placed: only chunks with
  // an OCR page can hold one, and more candidates are ranked for the matches that are left out.
  if (options.source === "ocr") filters.push("EXISTS (SELECT 1 FROM json_each(c.flags) WHERE json_each.value = 'ocr')");
  if (options.source !== undefined) params.limit = options.limit * SOURCE_CANDIDATES;
  const ranked = sqlite(() =>
    db
      .prepare(
        `SELECT ${table}.rowid AS seq, ${table}.rank AS rank FROM ${table}` +
          (filters.length ? ` JOIN chunks c ON c.seq = ${table}.rowid JOIN documents d ON d.id = c.document_row` : "") +
          ` WHERE ${table} MATCH @match AND ${table}.rank MATCH @weights` +
          filters.map((f) => ` AND ${f}`).join("") +
          ` ORDER BY ${table}.rank LIMIT @limit`,
      )
      .all(params) as { seq: number; rank: number }[],
  );
  // CAST: better-sqlite3 binds a JS number as REAL, and FTS5 then takes over the rowid test
  // without applying it (3.53: `rowid = 3.0` returns every match), so each hit got the first
  // match's snippet.
  const marked = db.prepare(
    `SELECT highlight(${table}, 0, char(1), char(2)) AS marked, snippet(${table}, 0, char(1), char(2), '…', ${SNIPPET_TOKENS}) AS snippet FROM ${table} WHERE ${table} MATCH @match AND rowid = CAST(@seq AS INTEGER)`,
  );
  const chunkRow = db.prepare(
    "SELECT c.id, c.chunk_index, c.page_start, c.page_end, c.char_start, c.prefix_chars, d.id AS document_row, d.document_id, d.uri, d.title FROM chunks c JOIN documents d ON d.id = c.document_row WHERE c.seq = ?",
  );
  const pageRows = db.prepare("SELECT number, label, char_start, char_end, ocr FROM pages WHERE document_row = ? AND char_start IS NOT NULL ORDER BY number");
  const pagesOf = new Map<number, PageOffsets[]>();

  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const { seq, rank } of ranked) {
    if (hits.length >= options.limit) break;
    const text = sqlite(() => marked.get({ match, seq }) as { marked: string; snippet: string });
    const chunk = chunkRow.get(seq) as ChunkOffsets & { id: string; chunk_index: number; page_start: number; page_end: number; document_row: number; document_id: string | null; uri: string; title: string | null };
    if (!pagesOf.has(chunk.document_row)) pagesOf.set(chunk.document_row, pageRows.all(chunk.document_row) as PageOffsets[]);
    const pages = pagesOf.get(chunk.document_row)!;
    const spans = markedSpans(text.marked);
    const first = spans[0];
    const last = spans[spans.length - 1];
    const docStart = first ? documentOffset(chunk, first[0]) : chunk.char_start;
    const docEnd = last ? documentOffset(chunk, last[1] - 1) : chunk.char_start;
    const key = `${chunk.document_row}:${docStart}:${docEnd}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const matchPages: [number, number] = first ? [pageOf(pages, docStart, chunk.page_start), pageOf(pages, docEnd, chunk.page_end)] : [chunk.page_start, chunk.page_end];
    const { snippet, highlights } = cleanSnippet(text.snippet);
    const ocr = ocrOf(pages.filter((p) => p.number >= matchPages[0] && p.number <= matchPages[1]));
    if ((options.source === "ocr" && !ocr) || (options.source === "text" && ocr)) continue;
    hits.push({
      score: -rank,
      documentId: chunk.document_id,
      uri: chunk.uri,
      title: chunk.title,
      chunkId: chunk.id,
      chunkIndex: chunk.chunk_index,
      pageStart: chunk.page_start,
      pageEnd: chunk.page_end,
      matchPages,
      matchPageLabels: pages.filter((p) => p.number >= matchPages[0] && p.number <= matchPages[1] && p.label).map((p) => p.label!),
      snippet,
      highlights,
      ...(ocr ? { ocr } : {}),
    });
  }
  return { query, match, hits };
}

/** The OCR pages among the matched pages, and their confidence (weighted by words); undefined when none was read by OCR. */
function ocrOf(pages: readonly PageOffsets[]): SearchHit["ocr"] {
  const read = pages.flatMap((p) => (p.ocr ? [{ number: p.number, facts: JSON.parse(p.ocr) as { words?: number; meanConfidence?: number } }] : []));
  if (read.length === 0) return undefined;
  const words = read.reduce((n, r) => n + (r.facts.words ?? 0), 0);
  const confidence = words ? read.reduce((s, r) => s + (r.facts.meanConfidence ?? 0) * (r.facts.words ?? 0), 0) / words : 0;
  return { pages: read.map((r) => r.number), meanConfidence: Math.round(confidence * 10) / 10 };
}

interface ChunkOffsets {
  char_start: number;
  prefix_chars: number;
}

interface PageOffsets {
  number: number;
  label: string | null;
  char_start: number;
  char_end: number;
  /** JSON of the page's OCR facts, for pages read by OCR. */
  ocr: string | null;
}

/** [start, end) of each marked match in highlight()'s output, as offsets into the chunk text. */
export function markedSpans(marked: string): [number, number][] {
  const spans: [number, number][] = [];
  let position = 0;
  let start = -1;
  for (const ch of marked) {
    if (ch === START) start = position;
    else if (ch === END) {
      if (start >= 0) spans.push([start, position]);
      start = -1;
    } else position += ch.length;
  }
  return spans;
}

/** A position in a chunk's text → the document text (a repeated table header maps to where the chunk starts). */
function documentOffset(chunk: ChunkOffsets, position: number): number {
  return chunk.char_start + Math.max(0, position - chunk.prefix_chars);
}

function pageOf(pages: readonly PageOffsets[], offset: number, fallback: number): number {
  let found = fallback;
  for (const p of pages) if (p.char_start <= offset) found = p.number;
  return found;
}

/** Markers out, white space collapsed, and where each match sits in what is left. */
export function cleanSnippet(raw: string): { snippet: string; highlights: [number, number][] } {
  let snippet = "";
  const highlights: [number, number][] = [];
  let start = -1;
  for (const ch of raw) {
    if (ch === START) start = snippet.length;
    else if (ch === END) {
      if (start >= 0) highlights.push([start, snippet.length]);
      start = -1;
    } else if (/\s/.test(ch)) {
      if (snippet.length > 0 && !snippet.endsWith(" ")) snippet += " ";
    } else snippet += ch;
  }
  const trimmed = snippet.trimEnd();
  return { snippet: trimmed, highlights: highlights.map(([s, e]) => [s, Math.min(e, trimmed.length)]) };
}

/** Runs a statement, turning an error from FTS5 about the query into a QueryError. */
function sqlite<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    const message = (err as Error).message;
    if (/fts5|syntax error|unterminated|malformed MATCH/i.test(message)) throw new QueryError(`the full-text index could not read this query (${message})`);
    throw err;
  }
}
