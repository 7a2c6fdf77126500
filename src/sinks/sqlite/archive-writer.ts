/**
 * Writes documents into the archive. A document's rows are replaced together — inside the
 * caller's transaction, as one savepoint — or left untouched when the rows and config hashes
 * say nothing changed, so re-running the same batch changes nothing at all (same rows, same
 * rowids, same ids). The ranking bounds of the chunks written are recorded with them.
 */
import type { Database, Statement } from "better-sqlite3";
import { tableExists } from "./archive-schema.js";
import type { DocumentRows } from "./document-rows.js";
import { ImpactWriter } from "./term-impacts.js";

export type WriteOutcome = "inserted" | "replaced" | "unchanged";

export class ArchiveWriter {
  private readonly findDocument: Statement<[string], { id: number; rows_hash: string; config_hash: string }>;
  private readonly insertDocument: Statement;
  private readonly updateDocument: Statement;
  private readonly deleteChunks: Statement<[number]>;
  private readonly deletePages: Statement<[number]>;
  private readonly deleteDocument: Statement<[number]>;
  private readonly insertPage: Statement;
  private readonly insertChunk: Statement;
  private readonly allDocuments: Statement<[], { id: number; uri: string }>;
  /** Absent for tables without the bounds (bench/archive.mjs's reference without the index). */
  private readonly impacts: ImpactWriter | undefined;
  readonly write: (rows: DocumentRows, ingestedAt: string) => WriteOutcome;

  constructor(private readonly db: Database) {
    this.findDocument = db.prepare("SELECT id, rows_hash, config_hash FROM documents WHERE uri = ?");
    const documentColumns = ["uri", "path", "document_id", "title", "pages", "status", "error_code", "error", "warnings", "chunk_count", "ingested_at", "config_hash", "rows_hash"];
    this.insertDocument = db.prepare(`INSERT INTO documents (${documentColumns.join(", ")}) VALUES (${documentColumns.map((c) => "@" + c).join(", ")})`);
    this.updateDocument = db.prepare(`UPDATE documents SET ${documentColumns.map((c) => `${c} = @${c}`).join(", ")} WHERE id = @id`);
    this.deleteChunks = db.prepare("DELETE FROM chunks WHERE document_row = ?");
    this.deletePages = db.prepare("DELETE FROM pages WHERE document_row = ?");
    this.deleteDocument = db.prepare("DELETE FROM documents WHERE id = ?");
    // The document's row is bound by position and the rest from the row as it is: no copy of each
    // page and chunk row to add it.
    const pageColumns = ["number", "label", "text", "char_start", "char_end", "mode", "format", "flags", "furniture", "facts", "ocr", "width", "height"];
    this.insertPage = db.prepare(`INSERT INTO pages (document_row, ${pageColumns.join(", ")}) VALUES (?, ${pageColumns.map((c) => "@" + c).join(", ")})`);
    const chunkColumns = ["id", "chunk_index", "text", "title", "page_start", "page_end", "page_labels", "char_start", "char_end", "prefix_chars", "token_count", "headings", "headings_inside", "running_titles", "flags", "cjk", "boxes"];
    this.insertChunk = db.prepare(`INSERT INTO chunks (document_row, ${chunkColumns.join(", ")}) VALUES (?, ${chunkColumns.map((c) => "@" + c).join(", ")})`);
    this.allDocuments = db.prepare("SELECT id, uri FROM documents ORDER BY id");
    const tokenize = (db.prepare("SELECT value FROM archive_meta WHERE key = 'fts_tokenize'").pluck().get() as string | undefined) ?? "";
    this.impacts = tableExists(db, "term_impacts") ? new ImpactWriter(db, tokenize) : undefined;
    this.write = db.transaction((rows: DocumentRows, ingestedAt: string) => this.replace(rows, ingestedAt));
  }

  private replace(rows: DocumentRows, ingestedAt: string): WriteOutcome {
    const existing = this.findDocument.get(rows.document.uri);
    if (existing && existing.rows_hash === rows.document.rows_hash && existing.config_hash === rows.document.config_hash) return "unchanged";
    const document = { ...rows.document, ingested_at: ingestedAt };
    let id: number;
    if (existing) {
      id = existing.id;
      this.deleteRowsOf(id);
      this.updateDocument.run({ ...document, id });
    } else {
      id = Number(this.insertDocument.run(document).lastInsertRowid);
    }
    for (const page of rows.pages) this.insertPage.run(id, page);
    const written = rows.chunks.map((chunk) => ({ seq: Number(this.insertChunk.run(id, chunk).lastInsertRowid), text: chunk.text, title: chunk.title, cjk: chunk.cjk }));
    this.impacts?.add(written);
    return existing ? "replaced" : "inserted";
  }

  /** Frees the tokenizer the bounds are counted with. */
  close(): void {
    this.impacts?.close();
  }

  /** Chunks first, so the full-text triggers see every row they indexed. */
  private deleteRowsOf(id: number): void {
    this.deleteChunks.run(id);
    this.deletePages.run(id);
  }

  /** Removes the document at `uri`, with its pages and chunks, if the archive has it. */
  remove(uri: string): void {
    const existing = this.findDocument.get(uri);
    if (!existing) return;
    this.deleteRowsOf(existing.id);
    this.deleteDocument.run(existing.id);
  }

  /** Removes every document whose uri is not in `keep`, with its pages and chunks. Returns their uris. */
  prune(keep: ReadonlySet<string>): string[] {
    return this.db.transaction(() => {
      const removed: string[] = [];
      for (const { id, uri } of this.allDocuments.all()) {
        if (keep.has(uri)) continue;
        this.deleteRowsOf(id);
        this.deleteDocument.run(id);
        removed.push(uri);
      }
      return removed;
    })();
  }
}
