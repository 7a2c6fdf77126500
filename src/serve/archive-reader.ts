/**
 * The archive as the server reads it: opened read-only (a run may be writing it at the same
 * time: WAL readers never wait for the writer and see whole committed batches) and defensively,
 * its full-text tables checked before anything uses them (fts-tables-check.ts), searched
 * through the same `searchArchive` as `pagestream search`, and read document by document,
 * by documentId (the sha256 of its bytes) only.
 *
 * Columns newer than the archive's schema are read only when they are there: `pages.facts`
 * (schema 2) and `pages.ocr` (written by the OCR stage), so an older archive is served with
 * what it has.
 */
import Database from "better-sqlite3";
import type { PageBox } from "../core/records.js";
import { FTS_TABLE, TRIGRAM_TABLE, tableExists } from "../sinks/sqlite/archive-schema.js";
import { ARCHIVE_SCHEMA_VERSION } from "../sinks/sqlite/document-rows.js";
import { checkFullTextTables, hardenConnection } from "../sinks/sqlite/fts-tables-check.js";
import { matchesInDocument, pageOffsets, searchArchive, type PageMatch, type SearchOptions, type SearchResult } from "../sinks/sqlite/search.js";

export interface DocumentRecord {
  row: number;
  /** The sha256 of the document's bytes. */
  documentId: string;
  uri: string;
  /** Every uri the archive holds these bytes at, the one above first. */
  uris: string[];
  title: string | null;
  pages: number | null;
  status: string;
  ingestedAt: string;
  warnings: { code: string; message: string; pages?: number[] }[];
}

export interface PageRecordRow {
  number: number;
  label: string | null;
  text: string;
  mode: string;
  flags: string[];
  furniture: unknown;
  facts: unknown;
  ocr: unknown;
}

export interface ArchiveCounts {
  documents: number;
  failedDocuments: number;
  pages: number;
  chunks: number;
  flags: string[];
  substring: boolean;
  ingested: { first: string; last: string } | null;
}

/** A document as a listing shows it: no pages, no text. */
export interface DocumentSummary {
  documentId: string;
  uri: string;
  /** The file under the source's root, when the archive knows it (schema 5). */
  path: string | null;
  title: string | null;
  pages: number | null;
  status: string;
  chunks: number;
  ingestedAt: string;
}

/** A chunk as a reader of a document's neighbourhood wants it. */
export interface ChunkRow {
  chunkId: string;
  chunkIndex: number;
  text: string;
  pageStart: number;
  pageEnd: number;
  pageLabels: string[];
  /** The headings the chunk stands under, outermost first. */
  headings: string[];
}

/** A chunk's own text in its document's text ([charStart, charEnd)) and its boxes on the pages. */
export interface ChunkRange {
  chunkId: string;
  charStart: number;
  charEnd: number;
  boxes: PageBox[];
}

/** Where a page's text stands in its document's text: [charStart, charEnd). */
export interface PageOffsets {
  number: number;
  charStart: number;
  charEnd: number;
}

/** A documentId: the sha256 of the file's bytes, 64 lower-case hex digits. */
export const DOCUMENT_ID = /^[0-9a-f]{64}$/;

export class ArchiveReader {
  private readonly pageColumns: string;
  private readonly pageColumnNames: Set<string>;
  private readonly chunkColumns: Set<string>;
  /** The term lookup in the index's vocabulary: undefined until asked, null when SQLite has no fts5vocab. */
  private vocab: Database.Statement | null | undefined;

  private constructor(private readonly db: Database.Database) {
    const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('pages')").all() as { name: string }[]).map((c) => c.name));
    this.pageColumnNames = columns;
    this.chunkColumns = new Set((db.prepare("SELECT name FROM pragma_table_info('chunks')").all() as { name: string }[]).map((c) => c.name));
    this.pageColumns = ["number", "label", "text", "mode", "flags", "furniture", columns.has("facts") ? "facts" : "NULL AS facts", columns.has("ocr") ? "ocr" : "NULL AS ocr"].join(", ");
  }

  /** Opens an archive read-only; throws an Error that says what is wrong with the file, by `name`. */
  static open(file: string, name = file): ArchiveReader {
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
    }
    try {
      hardenConnection(db);
      if (!tableExists(db, "archive_meta") || !tableExists(db, FTS_TABLE)) throw new Error("not a pagestream archive (no archive_meta or full-text index)");
      const version = Number((db.prepare("SELECT value FROM archive_meta WHERE key = 'schema_version'").get() as { value: string } | undefined)?.value);
      if (!(version >= 1 && version <= ARCHIVE_SCHEMA_VERSION)) {
        throw new Error(`the archive has schema version ${version}, newer than this pagestream reads (${ARCHIVE_SCHEMA_VERSION}): update pagestream`);
      }
      // It may come from elsewhere: its full-text tables are checked before FTS5 reads them.
      checkFullTextTables(db);
      db.pragma("busy_timeout = 5000");
      return new ArchiveReader(db);
    } catch (err) {
      db.close();
      throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * The reader's connection (read-only, hardened, its full-text tables checked), for the readers
   * of its plain tables kept beside their one user (src/mcp/archive-lookups.ts).
   */
  get connection(): Database.Database {
    return this.db;
  }

  search(query: string, options: SearchOptions): SearchResult {
    return searchArchive(this.db, query, options);
  }

  /** Where the query matches in a document's pages. */
  matches(query: string, document: DocumentRecord, options: { substring?: boolean } = {}): PageMatch[] {
    return matchesInDocument(this.db, query, document.row, options);
  }

  counts(): ArchiveCounts {
    const d = this.db.prepare("SELECT count(*) AS n, coalesce(sum(status = 'failed'), 0) AS failed, min(ingested_at) AS first, max(ingested_at) AS last FROM documents").get() as { n: number; failed: number; first: string | null; last: string | null };
    const count = (table: string) => (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    // The flags that occur, so the page offers only filters that can find something.
    const flags = (this.db.prepare("SELECT DISTINCT value FROM pages, json_each(pages.flags) ORDER BY value").all() as { value: string }[]).map((f) => f.value);
    return {
      documents: d.n,
      failedDocuments: d.failed,
      pages: count("pages"),
      chunks: count("chunks"),
      flags,
      substring: tableExists(this.db, TRIGRAM_TABLE),
      ingested: d.first && d.last ? { first: d.first, last: d.last } : null,
    };
  }

  /** The distinct folders of the documents' uris (at most `limit`), for the folder filter. */
  folders(limit: number): string[] {
    const rows = this.db.prepare("SELECT uri FROM documents WHERE status != 'failed' ORDER BY uri").iterate() as IterableIterator<{ uri: string }>;
    const folders = new Set<string>();
    for (const { uri } of rows) {
      const cut = uri.lastIndexOf("/");
      if (cut > 0) folders.add(uri.slice(0, cut + 1));
      if (folders.size >= limit) break;
    }
    return [...folders];
  }

  /**
   * One page of the archive's documents, newest first (by when they were written, then by row),
   * without the failed ones; `total` counts them all.
   */
  listDocuments(offset: number, limit: number): { total: number; documents: DocumentSummary[] } {
    const total = (this.db.prepare("SELECT count(*) AS n FROM documents WHERE status != 'failed'").get() as { n: number }).n;
    const rows = this.db
      .prepare("SELECT document_id, uri, path, title, pages, status, chunk_count, ingested_at FROM documents WHERE status != 'failed' ORDER BY ingested_at DESC, id DESC LIMIT ? OFFSET ?")
      .all(limit, offset) as { document_id: string; uri: string; path: string | null; title: string | null; pages: number | null; status: string; chunk_count: number; ingested_at: string }[];
    return {
      total,
      documents: rows.map((r) => ({ documentId: r.document_id, uri: r.uri, path: r.path, title: r.title, pages: r.pages, status: r.status, chunks: r.chunk_count, ingestedAt: r.ingested_at })),
    };
  }

  /** The chunks of a document whose index is in [first, last], in order. */
  chunks(document: DocumentRecord, first: number, last: number): ChunkRow[] {
    const rows = this.db
      .prepare("SELECT id, chunk_index, text, page_start, page_end, page_labels, headings FROM chunks WHERE document_row = ? AND chunk_index BETWEEN ? AND ? ORDER BY chunk_index")
      .all(document.row, first, last) as { id: string; chunk_index: number; text: string; page_start: number; page_end: number; page_labels: string; headings: string }[];
    return rows.map((r) => ({
      chunkId: r.id,
      chunkIndex: r.chunk_index,
      text: r.text,
      pageStart: r.page_start,
      pageEnd: r.page_end,
      pageLabels: parseJson(r.page_labels, []),
      headings: parseJson(r.headings, []),
    }));
  }

  /** The document and index of a chunk by its id (the UUID of the JSONL and of search hits). */
  chunkPlace(chunkId: string): { documentId: string; chunkIndex: number } | undefined {
    const row = this.db
      .prepare("SELECT d.document_id AS document_id, c.chunk_index AS chunk_index FROM chunks c JOIN documents d ON d.id = c.document_row WHERE c.id = ? AND d.status != 'failed' LIMIT 1")
      .get(chunkId) as { document_id: string; chunk_index: number } | undefined;
    return row ? { documentId: row.document_id, chunkIndex: row.chunk_index } : undefined;
  }

  /** A document by its documentId; undefined when the archive holds no ingested document with it. */
  document(documentId: string): DocumentRecord | undefined {
    if (!DOCUMENT_ID.test(documentId)) return undefined;
    const rows = this.db
      .prepare("SELECT id, document_id, uri, title, pages, status, ingested_at, warnings FROM documents WHERE document_id = ? AND status != 'failed' ORDER BY id")
      .all(documentId) as { id: number; document_id: string; uri: string; title: string | null; pages: number | null; status: string; ingested_at: string; warnings: string }[];
    const first = rows[0];
    if (!first) return undefined;
    return {
      row: first.id,
      documentId: first.document_id,
      uri: first.uri,
      uris: rows.map((r) => r.uri),
      title: first.title,
      pages: first.pages,
      status: first.status,
      ingestedAt: first.ingested_at,
      warnings: parseJson(first.warnings, []),
    };
  }

  /** True when `uri` is the uri of a document the archive holds: the only uris the server ever reads. */
  holdsUri(uri: string): boolean {
    return this.db.prepare("SELECT 1 FROM documents WHERE uri = ?").get(uri) !== undefined;
  }

  pages(document: DocumentRecord): PageRecordRow[] {
    const rows = this.db.prepare(`SELECT ${this.pageColumns} FROM pages WHERE document_row = ? ORDER BY number`).all(document.row) as Record<string, unknown>[];
    return rows.map((r) => ({
      number: r.number as number,
      label: r.label as string | null,
      text: r.text as string,
      mode: r.mode as string,
      flags: parseJson(r.flags as string, []),
      furniture: parseJson(r.furniture as string | null, null),
      facts: parseJson(r.facts as string | null, null),
      ocr: parseJson(r.ocr as string | null, null),
    }));
  }

  /**
   * Where a chunk's own text stands in its document (offsets into the document's text, after any
   * repeated table header) and its boxes on the pages: what the page needs to land on a hit.
   * Undefined for a chunk of another document, or an archive without offsets (before schema 6).
   */
  chunkPlaceInDocument(document: DocumentRecord, chunkId: string): ChunkRange | undefined {
    if (!this.chunkColumns.has("char_start")) return undefined;
    const boxes = this.chunkColumns.has("boxes") ? "boxes" : "'[]' AS boxes";
    const row = this.db.prepare(`SELECT id, char_start, char_end, ${boxes} FROM chunks WHERE document_row = ? AND id = ? LIMIT 1`).get(document.row, chunkId) as
      | { id: string; char_start: number; char_end: number; boxes: string }
      | undefined;
    return row ? { chunkId: row.id, charStart: row.char_start, charEnd: row.char_end, boxes: parseJson(row.boxes, []) } : undefined;
  }

  /** Where each chunk's own text stands in its document, by chunk id (none before schema 6). */
  chunkRanges(chunkIds: readonly string[]): Map<string, { charStart: number; charEnd: number }> {
    if (!this.chunkColumns.has("char_start")) return new Map();
    const statement = this.db.prepare("SELECT char_start, char_end FROM chunks WHERE id = ? LIMIT 1");
    const ranges = new Map<string, { charStart: number; charEnd: number }>();
    for (const id of chunkIds) {
      const row = statement.get(id) as { char_start: number; char_end: number } | undefined;
      if (row) ranges.set(id, { charStart: row.char_start, charEnd: row.char_end });
    }
    return ranges;
  }

  /** Where each page's text starts and ends in the document's text (none before schema 6). */
  pageOffsets(document: DocumentRecord): PageOffsets[] {
    if (!this.pageColumnNames.has("char_start")) return [];
    // The query search ranks with (its pages_offsets index), not one of our own.
    return pageOffsets(this.db, document.row).map((r) => ({ number: r.number, charStart: r.char_start, charEnd: r.char_end }));
  }

  /** One page's text as archived; undefined when the document has no such page. */
  pageText(document: DocumentRecord, number: number): string | undefined {
    return (this.db.prepare("SELECT text FROM pages WHERE document_row = ? AND number = ?").get(document.row, number) as { text: string } | undefined)?.text;
  }

  /**
   * What example queries are made from: the titles and the first chunk's text of at most `limit`
   * documents spread evenly over the archive (by row), so a large archive costs what a small one does.
   */
  exampleMaterial(limit: number): { documentId: string; title: string | null; text: string }[] {
    const rows = this.db
      .prepare(
        `WITH listed AS (SELECT id, document_id, title, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total FROM documents WHERE status != 'failed')
         SELECT l.document_id, l.title, (SELECT text FROM chunks WHERE document_row = l.id ORDER BY chunk_index LIMIT 1) AS text
         FROM listed l WHERE (l.n - 1) % max(1, l.total / @limit) = 0 LIMIT @limit`,
      )
      .all({ limit }) as { document_id: string; title: string | null; text: string | null }[];
    return rows.map((r) => ({ documentId: r.document_id, title: r.title, text: r.text ?? "" }));
  }

  /**
   * How many chunks hold `term` as the full-text index tokenized it, read from an fts5vocab table
   * in the connection's temp schema (made once; it reads the index, never writes the archive);
   * undefined when SQLite offers no fts5vocab.
   */
  chunksHolding(term: string): number | undefined {
    if (this.vocab === undefined) {
      try {
        this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.pagestream_vocab USING fts5vocab(main, '${FTS_TABLE}', 'row')`);
        this.vocab = this.db.prepare("SELECT doc FROM temp.pagestream_vocab WHERE term = ?").pluck();
      } catch {
        this.vocab = null;
      }
    }
    return this.vocab === null ? undefined : ((this.vocab.get(term) as number | undefined) ?? 0);
  }

  /** Flags of the chunks of a search's hits, by chunk id. */
  chunkFlags(chunkIds: readonly string[]): Map<string, string[]> {
    const statement = this.db.prepare("SELECT flags FROM chunks WHERE id = ?");
    return new Map(chunkIds.map((id) => [id, parseJson((statement.get(id) as { flags: string } | undefined)?.flags ?? "[]", [])]));
  }
}

/** A JSON column; a value that does not parse (written by hand, damaged) reads as the fallback. */
function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
