/**
 * An archive pagestream did not just create — given by someone, downloaded, copied in — is
 * checked before any FTS5 query or write touches it. SQLite's FTS5 before 3.54.0 overflows its
 * heap on two crafted inputs, and the SQLite in better-sqlite3 12.x (the newest that runs on
 * Node 20) is 3.53.2: CVE-2026-119373 (fts5MergeRowidLists, reached by a prefix query on a table
 * declared `detail=none`) and CVE-2026-119374 (fts5DoSecureDelete, reached when the file sets
 * the table's `secure-delete` option). pagestream declares neither, so an archive whose
 * full-text tables are exactly pagestream's cannot reach them:
 *
 * - every virtual table, every trigger and every object named after the full-text tables (their
 *   shadow tables) must be one that pagestream's own statements for the archive's schema version
 *   make (fullTextDeclarations, run in memory), to the letter;
 * - each full-text table's `%_config` must hold nothing but the `version` row FTS5 writes itself
 *   (no `secure-delete`, and nothing else pagestream never sets: `rank`, `pgsz`, `automerge`…).
 *
 * Reading sqlite_master and the `%_config` tables runs no FTS5 code. The connection is made
 * defensive first (hardenConnection).
 */
import type { Database } from "better-sqlite3";
import { FTS_TOKENIZERS } from "./fts-tokens.js";
import { FTS_TABLE, fullTextDeclarations, newerSchema, tableExists, TRIGRAM_TABLE } from "./archive-schema.js";
import { ARCHIVE_SCHEMA_VERSION } from "./document-rows.js";

/** What is wrong with an archive's full-text tables, as a code from this closed set. */
export type ArchiveProblemCode = "schema_version" | "fts_declaration" | "fts_table" | "fts_trigger" | "fts_config";

export interface ArchiveProblem {
  code: ArchiveProblemCode;
  message: string;
}

/** An archive refused before its full-text index was used: every problem found, in one sentence. */
export class ArchiveRefused extends Error {
  override name = "ArchiveRefused";
  constructor(readonly problems: readonly ArchiveProblem[]) {
    super(`not opened: ${problems.map((p) => p.message).join("; ")} (an archive from elsewhere must have exactly pagestream's full-text tables: see docs/archive-and-search.md)`);
  }
}

/** The version row FTS5 writes in a table's `%_config` (FTS5_CURRENT_VERSION), the only row pagestream's tables have. */
const FTS5_CONFIG_VERSION = 4;

/**
 * Opens no door a file could use: defensive mode (better-sqlite3 turns on
 * SQLITE_DBCONFIG_DEFENSIVE unless its unsafe mode is on: no writing to shadow tables or to the
 * schema by SQL), and an untrusted schema (the file's triggers and views may call only
 * functions and virtual tables SQLite deems innocuous).
 */
export function hardenConnection(db: Database): void {
  db.unsafeMode(false);
  db.pragma("trusted_schema = OFF");
}

/** Throws ArchiveRefused unless the archive's full-text tables are exactly pagestream's (see the module comment). */
export function checkFullTextTables(db: Database): void {
  const problems: ArchiveProblem[] = [];
  const version = schemaVersion(db, problems);
  const expected = version === undefined ? new Map<string, SchemaRow[]>() : declaredObjects(db, version);
  const rows = db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM sqlite_master
       WHERE type = 'trigger' OR (type = 'table' AND rootpage = 0)
          OR lower(name) GLOB '${FTS_TABLE}*' OR lower(name) GLOB '${TRIGRAM_TABLE}*'
          OR lower(tbl_name) GLOB '${FTS_TABLE}*' OR lower(tbl_name) GLOB '${TRIGRAM_TABLE}*'
       ORDER BY name`,
    )
    .all() as SchemaRow[];
  const matched = new Set<string>();
  for (const row of rows) {
    const declared = expected.get(row.name.toLowerCase());
    if (declared?.some((d) => d.type === row.type && d.name === row.name && d.tbl_name === row.tbl_name && d.sql === row.sql)) {
      matched.add(row.name);
    } else if (declared) {
      problems.push({ code: "fts_declaration", message: `${row.name} is declared ${JSON.stringify(row.sql)}, not as pagestream declares it for schema version ${version}` });
    } else if (row.type === "trigger") {
      problems.push({ code: "fts_trigger", message: `it has a trigger pagestream does not declare: ${JSON.stringify(row.sql)}` });
    } else {
      problems.push({ code: "fts_table", message: `it has a ${row.type} pagestream does not declare: ${JSON.stringify(row.sql ?? row.name)}` });
    }
  }
  // Only a config table found to be FTS5's own, to the letter, is read.
  for (const table of [FTS_TABLE, TRIGRAM_TABLE]) {
    if (!matched.has(table) || !matched.has(`${table}_config`)) continue;
    for (const { k, v } of db.prepare(`SELECT k, v FROM "${table}_config"`).all() as { k: unknown; v: unknown }[]) {
      if (k === "version" && v === FTS5_CONFIG_VERSION) continue;
      problems.push({ code: "fts_config", message: `${table} sets ${String(k)} = ${String(v)} in its FTS5 config, which pagestream never sets` });
    }
  }
  if (problems.length) throw new ArchiveRefused(problems);
}

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** The archive's schema version; undefined for a file without archive_meta (nothing of pagestream's in it yet). */
function schemaVersion(db: Database, problems: ArchiveProblem[]): number | undefined {
  if (!tableExists(db, "archive_meta")) return undefined;
  const stored = db.prepare("SELECT value FROM archive_meta WHERE key = 'schema_version'").pluck().get() as unknown;
  if (stored === undefined) return undefined;
  const version = Number(stored);
  if (Number.isInteger(version) && version >= 1 && version <= ARCHIVE_SCHEMA_VERSION) return version;
  problems.push({ code: "schema_version", message: Number.isInteger(version) && version > ARCHIVE_SCHEMA_VERSION ? newerSchema(version) : `its schema version ${JSON.stringify(stored)} is not one pagestream writes` });
  return undefined;
}

const declared = new Map<number, Map<string, SchemaRow[]>>();

/**
 * The sqlite_master rows pagestream's full-text declarations of schema `version` make, with
 * either tokenizer and the trigram index, by lower-case name: made once, in memory, by the
 * driver `db` was opened with.
 */
function declaredObjects(db: Database, version: number): Map<string, SchemaRow[]> {
  let found = declared.get(version);
  if (found) return found;
  found = new Map();
  for (const tokenize of FTS_TOKENIZERS) {
    const memory = new (db.constructor as new (file: string) => Database)(":memory:");
    try {
      memory.exec("CREATE TABLE chunks (seq INTEGER PRIMARY KEY, text TEXT, title TEXT, cjk TEXT)");
      memory.exec(fullTextDeclarations(version, tokenize, true));
      for (const row of memory.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name != 'chunks'").all() as SchemaRow[]) {
        const key = row.name.toLowerCase();
        found.set(key, [...(found.get(key) ?? []), row]);
      }
    } finally {
      memory.close();
    }
  }
  declared.set(version, found);
  return found;
}
