/**
 * An archive from elsewhere cannot reach the FTS5 heap overflows of SQLite < 3.54.0
 * (CVE-2026-119373: a table declared `detail=none` and a prefix query; CVE-2026-119374: the
 * `secure-delete` option set in the file). Crafted archives — real files, pagestream's schema with
 * a full-text table re-declared, an option set, a table or a trigger added — are refused by
 * search, serve and the sqlite sink, each problem named with the file, before FTS5 reads or
 * writes them: every crafted file also has its FTS5 structure records overwritten, so that an
 * FTS5 query would fail on them with FTS5's own "corrupt structure record" instead of the refusal.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentResult } from "../src/core/records.js";
import { emptySummary } from "../src/run/delivery.js";
import { ArchiveReader } from "../src/serve/archive-reader.js";
import { fullTextDeclarations } from "../src/sinks/sqlite/archive-schema.js";
import { ARCHIVE_SCHEMA_VERSION } from "../src/sinks/sqlite/document-rows.js";
import { ArchiveRefused, checkFullTextTables, hardenConnection, type ArchiveProblemCode } from "../src/sinks/sqlite/fts-tables-check.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { page, result, text } from "./stages/chunk-fixtures.js";

const CLI = resolve("dist/cli.js");
let dir: string;
let pagestreams: string;

/** pagestream's own archive, with both full-text tables (trigram: true) and a document. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pagestream-crafted-"));
  const sink = await sqlite.create(sqlite.options.parse({ path: "archive.sqlite", trigram: true }), { baseDir: dir, warn: () => {} });
  const notice = await result([page(1, [text("The harbour master closes the east berth for dredging in May.")], { uri: "/in/notice.pdf", documentId: "n".repeat(64) })], { limits: { maxTokens: 64 } });
  await sink.write(notice as DocumentResult);
  await sink.close({ ...emptySummary(), complete: true });
  pagestreams = join(dir, "archive.sqlite");
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** chunks_fts and its triggers as pagestream declares them, but `detail=none`, its rows indexed again. */
const DETAIL_NONE =
  "DROP TRIGGER chunks_fts_insert; DROP TRIGGER chunks_fts_delete; DROP TRIGGER chunks_fts_update; DROP TABLE chunks_fts;" +
  fullTextDeclarations(ARCHIVE_SCHEMA_VERSION, "unicode61 remove_diacritics 2", false).replace("prefix = '3 4')", "prefix = '3 4', detail = none)");
const SECURE_DELETE = "INSERT INTO chunks_trigram (chunks_trigram, rank) VALUES ('secure-delete', 1);";

/** The crafted archives: what was done to pagestream's, and the problems it must be refused for. */
const CRAFTED: { name: string; sql: string; problems: ArchiveProblemCode[] }[] = [
  { name: "chunks_fts re-declared detail=none, chunks_trigram with secure-delete set", sql: DETAIL_NONE + SECURE_DELETE, problems: ["fts_declaration", "fts_config"] },
  { name: "chunks_fts re-declared detail=none", sql: DETAIL_NONE, problems: ["fts_declaration"] },
  { name: "secure-delete set in chunks_trigram's config", sql: SECURE_DELETE, problems: ["fts_config"] },
  { name: "a rank function set in chunks_fts's config", sql: "INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('rank', 'bm25(10.0, 5.0)');", problems: ["fts_config"] },
  { name: "another FTS5 table, detail=none", sql: "CREATE VIRTUAL TABLE notes USING fts5(body, detail = none);", problems: ["fts_table"] },
  {
    name: "a trigger that sets secure-delete when a document is written",
    sql: "CREATE TRIGGER arm AFTER INSERT ON documents BEGIN INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('secure-delete', 1); END;",
    problems: ["fts_trigger"],
  },
];

/** A copy of pagestream's archive with `sql` run on it, and its FTS5 structure records overwritten (any FTS5 query on it fails). */
function craft(name: string, sql: string): string {
  const file = join(dir, `${name.replace(/\W+/g, "-")}.sqlite`);
  copyFileSync(pagestreams, file);
  const db = new Database(file);
  db.exec(sql);
  // Shadow tables are written only with defensive mode off, as a crafted file is made.
  db.unsafeMode(true);
  for (const table of ["chunks_fts", "chunks_trigram"]) db.prepare(`UPDATE ${table}_data SET block = x'ffffffffffffffff' WHERE id = 10`).run();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return file;
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const codes = (err: unknown) => ((err as Error).cause instanceof ArchiveRefused ? ((err as Error).cause as ArchiveRefused).problems.map((p) => p.code) : [`not refused: ${String(err)}`]);

describe("an archive whose full-text tables are not pagestream's", () => {
  it("passes pagestream's own; FTS5 cannot read a crafted copy at all (the tripwire)", () => {
    const db = new Database(pagestreams, { readonly: true });
    hardenConnection(db);
    expect(() => checkFullTextTables(db)).not.toThrow();
    db.close();
    const tripped = new Database(craft("tripwire only", ""), { readonly: true });
    expect(() => tripped.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'harb*'").get()).toThrow(/corrupt structure record/);
    tripped.close();
  });

  it.each(CRAFTED)("is refused when it has $name, before FTS5 runs on it", ({ name, sql, problems }) => {
    const file = craft(name, sql);
    // The check itself reads sqlite_master and the config tables, and nothing through FTS5.
    const statements: string[] = [];
    const db = new Database(file, { readonly: true, verbose: (s) => statements.push(String(s)) });
    hardenConnection(db);
    let refused: unknown;
    try {
      checkFullTextTables(db);
    } catch (err) {
      refused = err;
    }
    db.close();
    expect(refused instanceof ArchiveRefused ? refused.problems.map((p) => p.code) : refused).toEqual(problems);
    expect(statements.filter((s) => !/FROM sqlite_master|FROM archive_meta|FROM "chunks_(fts|trigram)_config"|^SELECT 1 FROM sqlite_master|pragma|PRAGMA/.test(s))).toEqual([]);

    // serve's reader.
    expect(() => ArchiveReader.open(file)).toThrow(new RegExp(`^${file}: not opened: `));
    try {
      ArchiveReader.open(file);
    } catch (err) {
      expect(codes(err)).toEqual(problems);
    }
  });

  it.each(CRAFTED)("is not written by the sqlite sink when it has $name: the file is left as it was", async ({ name, sql, problems }) => {
    const file = craft(name, sql);
    const before = sha256(file);
    const creating = sqlite.create(sqlite.options.parse({ path: file, trigram: true }), { baseDir: dir, warn: () => {} });
    await expect(creating).rejects.toThrow(new RegExp(`^${file}: not opened: `));
    expect(await creating.catch(codes)).toEqual(problems);
    expect(sha256(file)).toBe(before);
    // validate --env says so too.
    await expect(sqlite.probe!(sqlite.options.parse({ path: file }), { baseDir: dir })).rejects.toThrow(new RegExp(`^${file}: not opened: `));
  });

  it("is refused by pagestream search and pagestream serve with exit 2, naming the file and each problem", () => {
    const file = craft("for the command line", DETAIL_NONE + SECURE_DELETE);
    const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8" });
    for (const args of [["search", "--db", file, "harb*"], ["serve", "--db", file, "--port", "0"]]) {
      const { status, stdout, stderr } = cli(args);
      expect({ status, stdout }).toEqual({ status: 2, stdout: "" });
      expect(stderr).toContain(`pagestream: ${file}: not opened: chunks_fts is declared `);
      expect(stderr).toContain("detail = none");
      expect(stderr).toContain("chunks_trigram sets secure-delete = 1 in its FTS5 config, which pagestream never sets");
      expect(stderr).not.toMatch(/malformed|corrupt/i);
    }
  });
});
