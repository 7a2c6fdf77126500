/**
 * The archive's tables, and the full-text indexes kept in step with them.
 *
 * - `documents`: one row per source file (by uri), with its `path` under the source's root
 *   (schema 5), its `document_id` (the sha256 of its bytes), status, error, page count, title, when it was written (`ingested_at`) and the
 *   hashes a re-run compares (`config_hash`, `rows_hash`). Pages and chunks point at it by
 *   `document_row` (its rowid).
 * - `pages`: each page's text, printed label, flags, furniture, facts (how its text was made:
 *   order source, columns, dehyphenation decisions…; null on pages written before schema 3),
 *   how OCR read it (`ocr`, for pages the ocr stage read from their image; schema 4), and
 *   where its text sits in the document text chunk offsets point into; that text is in the
 *   view its chunks were cut from, `format` plain or markdown (schema 7); its size as displayed,
 *   `width` and `height` in points (schema 8).
 * - `chunks`: the chunk records, `id` the same UUID as in the JSONL. `title` repeats the
 *   document's title so the full-text index can hold it beside the text; `cjk` holds the text's
 *   Chinese, Japanese and Korean words as pairs of characters (cjk-bigrams.ts; "" for text
 *   without them; schema 5); `headings_inside` and `running_titles` as in the JSONL (schema 7);
 *   `boxes`, a JSON array of where its text stands on its pages, `{page, x0, y0, x1, y1}` in
 *   points from the displayed page's top-left corner (schema 8).
 * - `chunks_fts`: FTS5 over chunk text, title and cjk, external content (the text is stored
 *   once, in `chunks`), kept in step by triggers; tokenizer `unicode61 remove_diacritics 2`,
 *   with `porter` in front when stemming is on; prefix indexes for 3- and 4-letter prefixes
 *   (schema 6).
 * - `chunks_trigram` (optional): FTS5 trigram index over chunk text, for substring search.
 * - `chunks_filter`, `pages_offsets`: what search reads of a chunk's filters and of a hit's
 *   pages, without reading their text (schema 6).
 * - `impact_blocks`, `term_impacts`: bounds of what the chunks of each block of 128 can score
 *   for each word, so a search ranks only the blocks that can reach its page (term-impacts.ts;
 *   schema 6).
 * WAL mode: readers (`pagestream search`) never wait for a run that is writing.
 */
import type { Database } from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { cjkIndexText } from "./cjk-bigrams.js";
import { ARCHIVE_SCHEMA_VERSION } from "./document-rows.js";
import { IMPACT_TABLES, rebuildImpacts } from "./term-impacts.js";

/**
 * The steps from each schema version to the next, run in one transaction when an older archive
 * is opened: ARCHIVE_MIGRATIONS[n - 1] takes version n to n + 1. An archive is the user's
 * product, searched and served: it is brought forward, never refused for being old.
 */
const ARCHIVE_MIGRATIONS: (string | ((db: Database) => void))[] = [
  // 1 → 2: one name for the sha256 of a document's bytes (document_id), another for the hash of
  // its rows (rows_hash); pages and chunks point at their document's row by document_row.
  `ALTER TABLE documents RENAME COLUMN sha256 TO document_id;
   ALTER TABLE documents RENAME COLUMN content_hash TO rows_hash;
   DROP INDEX IF EXISTS documents_sha256;
   ALTER TABLE pages RENAME COLUMN document_id TO document_row;
   ALTER TABLE chunks RENAME COLUMN document_id TO document_row;`,
  // 2 → 3: what the stages decided about each page (order source, columns, hyphens…), for the
  // web page's badges; pages written before keep null until their document is written again.
  `ALTER TABLE pages ADD COLUMN facts TEXT;`,
  // 3 → 4: pages.ocr, how the ocr stage read a page from its image.
  `ALTER TABLE pages ADD COLUMN ocr TEXT;`,
  // 4 → 5: documents.path (the file under the source's root; null until the document is
  // written again), and chunks.cjk, the bigram column that makes Chinese, Japanese and Korean
  // words findable — filled here for the chunks already held; the full-text index is rebuilt
  // with it by prepareArchive.
  (db) => {
    db.exec(`ALTER TABLE documents ADD COLUMN path TEXT;
             ALTER TABLE chunks ADD COLUMN cjk TEXT NOT NULL DEFAULT '';`);
    // The old index's update trigger would reindex each row filled: it is rebuilt whole after.
    db.exec(dropIndexSql(FTS_TABLE));
    // A function of this connection only, for this one statement: the schema never names it.
    db.function("pagestream_cjk_index", { deterministic: true }, (text: unknown) => cjkIndexText(String(text)));
    db.exec("UPDATE chunks SET cjk = pagestream_cjk_index(text) WHERE pagestream_cjk_index(text) != ''");
  },
  // 5 → 6: the full-text index gets prefix indexes (rebuilt by prepareArchive, which records
  // the ranking bounds with it); the bound tables and the chunks_filter and pages_offsets
  // indexes come with TABLES.
  dropIndexSql("chunks_fts"),
  // 6 → 7: the view a page's text is in (`pages.format`: plain, or markdown when its chunks are),
  // and each chunk's headings inside it and running titles.
  `ALTER TABLE pages ADD COLUMN format TEXT NOT NULL DEFAULT 'plain';
   ALTER TABLE chunks ADD COLUMN headings_inside TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE chunks ADD COLUMN running_titles TEXT NOT NULL DEFAULT '[]';`,
  // 7 → 8: where each chunk's text stands on its pages (`chunks.boxes`), and each page's size as
  // displayed; none for what was written before, until its document is written again.
  `ALTER TABLE chunks ADD COLUMN boxes TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE pages ADD COLUMN width REAL;
   ALTER TABLE pages ADD COLUMN height REAL;`,
];

/** The columns of the full-text index, in the order bm25 weights them (FTS_WEIGHTS). */
export const FTS_COLUMNS = ["text", "title", "cjk"];
/**
 * Prefix lengths FTS5 keeps an index for: a prefix query of 3 or 4 letters reads one entry
 * instead of merging every word it starts (search needs at least 3). FTS5 uses one only for a
 * prefix of exactly its length. Costs ~55 MiB on a 265 MiB archive of 100,000 chunks.
 */
export const FTS_PREFIX_LENGTHS = [3, 4];

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
  path TEXT,
  document_id TEXT,
  title TEXT,
  pages INTEGER,
  status TEXT NOT NULL CHECK (status IN ('ok', 'scan', 'failed')),
  error_code TEXT,
  error TEXT,
  warnings TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  ingested_at TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  rows_hash TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS documents_document_id ON documents (document_id);
-- The newest documents first, for the web page's listing and list_documents.
CREATE INDEX IF NOT EXISTS documents_ingested ON documents (ingested_at);
CREATE TABLE IF NOT EXISTS pages (
  document_row INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  label TEXT,
  text TEXT NOT NULL,
  char_start INTEGER,
  char_end INTEGER,
  mode TEXT NOT NULL,
  flags TEXT NOT NULL,
  furniture TEXT,
  facts TEXT,
  ocr TEXT,
  format TEXT NOT NULL DEFAULT 'plain',
  width REAL,
  height REAL,
  PRIMARY KEY (document_row, number)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  document_row INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
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
  cjk TEXT NOT NULL DEFAULT '',
  headings_inside TEXT NOT NULL DEFAULT '[]',
  running_titles TEXT NOT NULL DEFAULT '[]',
  boxes TEXT NOT NULL DEFAULT '[]',
  UNIQUE (document_row, chunk_index)
) STRICT;
CREATE INDEX IF NOT EXISTS chunks_id ON chunks (id);
-- What search reads of a matched chunk's filters and of a hit's pages, without reading their
-- text, which the rows hold before these columns (schema 6).
CREATE INDEX IF NOT EXISTS chunks_filter ON chunks (seq, document_row, flags);
CREATE INDEX IF NOT EXISTS pages_offsets ON pages (document_row, number, label, char_start, char_end);
${IMPACT_TABLES}`;

export function ftsTokenizer(settings: IndexSettings): string {
  return settings.stemming === "porter" ? "porter unicode61 remove_diacritics 2" : "unicode61 remove_diacritics 2";
}

/** The full-text index as schema `version` declares it: text and title (1–4), cjk too (5), prefix indexes (6). */
function fullTextSql(version: number, tokenize: string): string {
  return indexSql(FTS_TABLE, version >= 5 ? FTS_COLUMNS : ["text", "title"], tokenize, version >= 6 ? FTS_PREFIX_LENGTHS : []);
}

function trigramSql(): string {
  return indexSql(TRIGRAM_TABLE, ["text"], "trigram remove_diacritics 1");
}

/**
 * The statements that make the full-text tables and their triggers of an archive of schema
 * `version` with tokenizer `tokenize`, and its trigram index when `trigram`: what an archive
 * from elsewhere is compared with (fts-tables-check.ts).
 */
export function fullTextDeclarations(version: number, tokenize: string, trigram: boolean): string {
  return fullTextSql(version, tokenize) + (trigram ? trigramSql() : "");
}

/** An external-content FTS5 table over `chunks`, and the triggers that keep it in step. */
function indexSql(table: string, columns: string[], tokenize: string, prefix: readonly number[] = []): string {
  const cols = columns.join(", ");
  const news = columns.map((c) => `new.${c}`).join(", ");
  const olds = columns.map((c) => `old.${c}`).join(", ");
  return `
CREATE VIRTUAL TABLE ${table} USING fts5(${cols}, content = 'chunks', content_rowid = 'seq', tokenize = '${tokenize}'${prefix.length ? `, prefix = '${prefix.join(" ")}'` : ""});
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
 * trigram on builds that index, off drops it. Returns what was rebuilt, for a message, and the
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
    db.exec("CREATE TABLE IF NOT EXISTS archive_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;");
    const meta = (key: string) => (db.prepare("SELECT value FROM archive_meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
    const setMeta = (key: string, value: string) => db.prepare("INSERT INTO archive_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
    const stored = meta("schema_version");
    const version = stored === undefined ? undefined : Number(stored);
    if (version !== undefined && version > ARCHIVE_SCHEMA_VERSION) throw new Error(newerSchema(version));
    if (version !== undefined) {
      for (let v = version; v < ARCHIVE_SCHEMA_VERSION; v++) {
        const step = ARCHIVE_MIGRATIONS[v - 1]!;
        if (typeof step === "string") db.exec(step);
        else step(db);
      }
      if (version < ARCHIVE_SCHEMA_VERSION) changed.push(`schema (version ${version} → ${ARCHIVE_SCHEMA_VERSION})`);
    }
    db.exec(TABLES);
    setMeta("schema_version", String(ARCHIVE_SCHEMA_VERSION));
    if (meta("archive_id") === undefined) setMeta("archive_id", randomUUID());
    const tokenize = ftsTokenizer(settings);
    if (meta("fts_tokenize") !== tokenize || !tableExists(db, FTS_TABLE)) {
      if (tableExists(db, FTS_TABLE)) changed.push(`full-text index (tokenizer now ${tokenize})`);
      else if (version !== undefined) changed.push("full-text index");
      db.exec(dropIndexSql(FTS_TABLE) + fullTextSql(ARCHIVE_SCHEMA_VERSION, tokenize));
      setMeta("fts_tokenize", tokenize);
      // The bounds count the index's tokens: a new tokenizer makes other ones.
      rebuildImpacts(db, tokenize);
    }
    if (settings.trigram && !tableExists(db, TRIGRAM_TABLE)) {
      db.exec(trigramSql());
      changed.push("trigram index (built)");
    } else if (!settings.trigram && tableExists(db, TRIGRAM_TABLE)) {
      db.exec(dropIndexSql(TRIGRAM_TABLE));
      changed.push("trigram index (dropped)");
    }
  })();
  const archiveId = (db.prepare("SELECT value FROM archive_meta WHERE key = 'archive_id'").get() as { value: string }).value;
  return { changes: changed, archiveId };
}

/** Why an archive of a schema `version` newer than this pagestream's is not written or read. */
export function newerSchema(version: number): string {
  return `the archive has schema version ${version}, newer than this pagestream's ${ARCHIVE_SCHEMA_VERSION}: run a newer pagestream, or write to a new file`;
}

export function tableExists(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
