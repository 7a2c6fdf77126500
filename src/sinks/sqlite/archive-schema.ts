/**
 * The archive's tables, and the full-text indexes kept in step with them.
 *
 * - `documents`: one row per source file (by uri), with its status, error, page count, title,
 *   when it was written (`ingested_at`) and the hashes a re-run compares.
 * - `pages`: each page's text, printed label, flags, furniture and facts (how its text was made:
 *   order source, columns, dehyphenation decisions…), and where its text sits in the document
 *   text chunk offsets point into.
 * - `chunks`: the chunk records, `id` the same UUID as in the JSONL. `title` repeats the
 *   document's title so the full-text index can hold it beside the text.
 * - `chunks_fts`: FTS5 over chunk text and title, external content (the text is stored once, in
 *   `chunks`), kept in step by triggers; tokenizer `unicode61 remove_diacritics 2`, with
 *   `porter` in front when stemming is on.
 * - `chunks_trigram` (optional): FTS5 trigram index over chunk text, for substring search.
 * WAL mode: readers (`pagestream search`) never wait for a run that is writing.
 */
import type { Database } from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { ARCHIVE_SCHEMA_VERSION } from "./document-rows.js";

export interface IndexSettings {
  stemming: "none" | "porter";
  trigram: boolean;
}

export const FTS_TABLE = "chunks_fts";
export const TRIGRAM_TABLE = "chunks_trigram";

const TABLES = `
CREATE TABLE IF NOT EXISTS archive_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  uri TEXT NOT NULL UNIQUE,
  sha256 TEXT,
  title TEXT,
  pages INTEGER,
  status TEXT NOT NULL CHECK (status IN ('ok', 'scan', 'failed')),
  error_code TEXT,
  error TEXT,
  warnings TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  ingested_at TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  content_hash TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS documents_sha256 ON documents (sha256);
CREATE TABLE IF NOT EXISTS pages (
  document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  label TEXT,
  text TEXT NOT NULL,
  char_start INTEGER,
  char_end INTEGER,
  mode TEXT NOT NULL,
  flags TEXT NOT NULL,
  furniture TEXT,
  facts TEXT,
  PRIMARY KEY (document_id, number)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  chunk_index INTEGER NOT NULL,
  text TEXT NOT NULL,
  title TEXT NOT NULL,
  page_start INTEGER NOT NULL,
  page_end INTEGER NOT NULL,
  page_labels TEXT NOT NULL,
  char_start INTEGER NOT NULL,
  char_end INTEGER NOT NULL,
  prefix_chars INTEGER NOT NULL,
  token_count INTEGER NOT NULL,
  headings TEXT NOT NULL,
  flags TEXT NOT NULL,
  UNIQUE (document_id, chunk_index)
) STRICT;
CREATE INDEX IF NOT EXISTS chunks_id ON chunks (id);
`;

/**
 * What each schema version added, applied in order to an older archive. A page written before
 * version 2 has no facts (null) until its document is written again.
 */
const MIGRATIONS: Record<number, string> = {
  2: "ALTER TABLE pages ADD COLUMN facts TEXT;",
};

export function ftsTokenizer(settings: IndexSettings): string {
  return settings.stemming === "porter" ? "porter unicode61 remove_diacritics 2" : "unicode61 remove_diacritics 2";
}

/** An external-content FTS5 table over `chunks`, and the triggers that keep it in step. */
function indexSql(table: string, columns: string[], tokenize: string): string {
  const cols = columns.join(", ");
  const news = columns.map((c) => `new.${c}`).join(", ");
  const olds = columns.map((c) => `old.${c}`).join(", ");
  return `
CREATE VIRTUAL TABLE ${table} USING fts5(${cols}, content = 'chunks', content_rowid = 'seq', tokenize = '${tokenize}');
CREATE TRIGGER ${table}_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO ${table} (rowid, ${cols}) VALUES (new.seq, ${news});
END;
CREATE TRIGGER ${table}_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO ${table} (${table}, rowid, ${cols}) VALUES ('delete', old.seq, ${olds});
END;
CREATE TRIGGER ${table}_update AFTER UPDATE ON chunks BEGIN
  INSERT INTO ${table} (${table}, rowid, ${cols}) VALUES ('delete', old.seq, ${olds});
  INSERT INTO ${table} (rowid, ${cols}) VALUES (new.seq, ${news});
END;
INSERT INTO ${table} (${table}) VALUES ('rebuild');
`;
}

function dropIndexSql(table: string): string {
  return `
DROP TRIGGER IF EXISTS ${table}_insert;
DROP TRIGGER IF EXISTS ${table}_delete;
DROP TRIGGER IF EXISTS ${table}_update;
DROP TABLE IF EXISTS ${table};
`;
}

/**
 * Creates the tables of a new archive, or checks an existing one, and brings its indexes in line
 * with `settings`: a changed tokenizer rebuilds the full-text index from the stored text,
 * trigram on builds that index, off drops it; an older schema is upgraded. Returns what changed, for a message, and the
 * archive's id (made once, when the file is created: the run state tells archives apart by it).
 */
export function prepareArchive(db: Database, settings: IndexSettings): { changes: string[]; archiveId: string } {
  db.pragma("journal_mode = WAL");
  // A commit is durable before the run state records it (a power cut must not lose a
  // document the state says the archive holds): one fsync per batch commit.
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  const changed: string[] = [];
  db.transaction(() => {
    db.exec(TABLES);
    const meta = (key: string) => (db.prepare("SELECT value FROM archive_meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
    const setMeta = (key: string, value: string) => db.prepare("INSERT INTO archive_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
    const version = meta("schema_version");
    const from = Number(version);
    if (version !== undefined && from !== ARCHIVE_SCHEMA_VERSION) {
      const known = Number.isInteger(from) && from >= 1 && from < ARCHIVE_SCHEMA_VERSION;
      if (!known) throw new Error(`the archive has schema version ${version}, and this pagestream writes version ${ARCHIVE_SCHEMA_VERSION}: write to a new file`);
      for (let v = from + 1; v <= ARCHIVE_SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      changed.push(`upgraded the tables from schema version ${from} to ${ARCHIVE_SCHEMA_VERSION} (pages written before have no facts until their document is written again)`);
    }
    setMeta("schema_version", String(ARCHIVE_SCHEMA_VERSION));
    if (meta("archive_id") === undefined) setMeta("archive_id", randomUUID());
    const tokenize = ftsTokenizer(settings);
    if (meta("fts_tokenize") !== tokenize || !tableExists(db, FTS_TABLE)) {
      if (tableExists(db, FTS_TABLE)) changed.push(`rebuilt the full-text index (tokenizer now ${tokenize})`);
      db.exec(dropIndexSql(FTS_TABLE) + indexSql(FTS_TABLE, ["text", "title"], tokenize));
      setMeta("fts_tokenize", tokenize);
    }
    if (settings.trigram && !tableExists(db, TRIGRAM_TABLE)) {
      db.exec(indexSql(TRIGRAM_TABLE, ["text"], "trigram remove_diacritics 1"));
      changed.push("rebuilt the trigram index (built)");
    } else if (!settings.trigram && tableExists(db, TRIGRAM_TABLE)) {
      db.exec(dropIndexSql(TRIGRAM_TABLE));
      changed.push("rebuilt the trigram index (dropped)");
    }
  })();
  const archiveId = (db.prepare("SELECT value FROM archive_meta WHERE key = 'archive_id'").get() as { value: string }).value;
  return { changes: changed, archiveId };
}

export function tableExists(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
