/**
 * What the MCP tools ask of an archive that ArchiveReader does not answer: which document a name
 * given by a client means (its id, 8 or more leading hex digits of it, its uri, or its path under
 * the source's root), and the view a document's pages are stored in (`pages.format`, schema 7).
 *
 * On the reader's own connection (read-only, hardened); only plain tables are read here.
 */
import type Database from "better-sqlite3";
import { isAbsolute, resolve } from "node:path";
import type { TextFormat } from "../core/records.js";
import { ArgumentError } from "./argument-error.js";

/** A page as the archive stores it: its text in the view its document's chunks were cut from. */
export interface StoredPage {
  number: number;
  /** The label printed on the page, where the document shows one. */
  label: string | null;
  text: string;
  format: TextFormat;
}

export class ArchiveLookups {
  private readonly hasFormat: boolean;
  private readonly hasPath: boolean;

  constructor(private readonly db: Database.Database) {
    const columns = (table: string) => new Set((db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name));
    this.hasFormat = columns("pages").has("format");
    this.hasPath = columns("documents").has("path");
  }

  /**
   * The documentId of the one ingested document `name` means: a documentId or 8+ leading hex
   * digits of one (as `pagestream search --document` takes), else a uri or a path (as the
   * archive stores it under the source's root, or relative to the server's folder, as the CLI
   * takes it). Throws an ArgumentError that says why when no document, or more than one, is meant.
   */
  documentNamed(name: string): string {
    if (/^[0-9a-f]{8,64}$/i.test(name)) {
      const ids = this.distinctIds("substr(document_id, 1, ?) = lower(?)", [name.length, name]);
      if (ids.length === 1) return ids[0]!;
      if (ids.length > 1) throw new ArgumentError("ambiguous_document", `document ${name}: ${ids.length} documents have an id starting with ${name.toLowerCase()}; give more of its digits`);
    }
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(name) || isAbsolute(name) ? name : resolve(name);
    const ids = this.distinctIds(`uri = ? OR uri = ?${this.hasPath ? " OR path = ?" : ""}`, this.hasPath ? [name, absolute, name] : [name, absolute]);
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1) throw new ArgumentError("ambiguous_document", `document ${JSON.stringify(name)}: ${ids.length} documents are stored at that path; name one by its id`);
    if (/^[0-9a-f]{1,7}$/i.test(name)) {
      throw new ArgumentError("no_document", `document ${name}: too short for a document id; give its first 8 hex digits or more (document_id in search and list_documents answers), or its path`);
    }
    const shown = JSON.stringify(name.length > 200 ? name.slice(0, 200) + "…" : name);
    throw new ArgumentError("no_document", `document ${shown}: the archive holds no document by that id or path (list_documents shows what it holds)`);
  }

  /**
   * The uri prefix a client's path prefix means: an absolute path or a uri as it is; a relative
   * path under the source's root, which the archive's documents tell (uri = root + path), else
   * under the server's folder, as the CLI takes it.
   */
  uriPrefix(prefix: string): string {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(prefix) || isAbsolute(prefix)) return prefix;
    const relative = prefix.replace(/^(\.\/)+/, "");
    if (this.hasPath) {
      const roots = this.db
        .prepare("SELECT DISTINCT substr(uri, 1, length(uri) - length(path)) FROM documents WHERE path IS NOT NULL AND path != '' AND substr(uri, -length(path)) = path LIMIT 2")
        .pluck()
        .all() as string[];
      if (roots.length === 1) return roots[0] + relative;
    }
    const absolute = resolve(relative);
    return prefix.endsWith("/") ? absolute + "/" : absolute;
  }

  /** The view a document's pages are stored in: the one its chunks were cut from (plain before schema 7). */
  pageFormat(documentRow: number): TextFormat {
    if (!this.hasFormat) return "plain";
    const row = this.db.prepare("SELECT format FROM pages WHERE document_row = ? LIMIT 1").get(documentRow) as { format: string } | undefined;
    return row?.format === "markdown" ? "markdown" : "plain";
  }

  /**
   * A document's pages numbered `from` to `to`, in order, each with the view its text is in; read
   * as the caller goes, so one that has enough stops reading (and breaks out of the loop).
   */
  *pages(documentRow: number, from: number, to: number): Generator<StoredPage> {
    const rows = this.db
      .prepare(`SELECT number, label, text, ${this.hasFormat ? "format" : "'plain' AS format"} FROM pages WHERE document_row = ? AND number BETWEEN ? AND ? ORDER BY number`)
      .iterate(documentRow, from, to) as IterableIterator<{ number: number; label: string | null; text: string; format: string }>;
    for (const row of rows) yield { number: row.number, label: row.label, text: row.text, format: row.format === "markdown" ? "markdown" : "plain" };
  }

  private distinctIds(where: string, params: unknown[]): string[] {
    return this.db.prepare(`SELECT DISTINCT document_id FROM documents WHERE status != 'failed' AND document_id IS NOT NULL AND (${where}) LIMIT 2`).pluck().all(...params) as string[];
  }
}
