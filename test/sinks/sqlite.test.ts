/** The sqlite sink against real SQLite (better-sqlite3, temporary files). */
import Database from "better-sqlite3";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DocumentResult } from "../../src/core/records.js";
import { emptySummary } from "../../src/run/delivery.js";
import { ARCHIVE_SCHEMA_VERSION } from "../../src/sinks/sqlite/document-rows.js";
import { searchArchive } from "../../src/sinks/sqlite/search.js";
import sqlite from "../../src/sinks/sqlite/sink.js";
import { chunkDocument } from "../../src/stages/chunk/chunker.js";
import { withBlockRoles } from "../../src/text/block-roles.js";
import { heading, page, result, table, text, tokenizer } from "../stages/chunk-fixtures.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-sqlite-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const summary = { ...emptySummary(), complete: true };
const S0 = "The east berth closes on the third of May for repairs to the wall.";
/** The facts of a page as chunk-fixtures' page() makes it: geometry order, one column. */
const FACTS = JSON.stringify({ orderSource: "geometry", orderReason: "untagged", columns: 1, untaggedGlyphs: 0 });
const S1 = "Fishing vessels will use the outer wall until the connected pontoons are done.";

const doc = (name: string, paragraphs: Parameters<typeof page>[1][], title?: string) =>
  result(
    paragraphs.map((ps, i) => page(i + 1, ps, { uri: `/in/${name}.pdf`, documentId: name.padEnd(64, "0") })),
    { ...(title ? { title } : {}), limits: { maxTokens: 24 } },
  );
const failedDoc = (uri: string): DocumentResult => ({
  status: "failed",
  uri,
  error: { type: "error", uri, code: "damaged", message: "the parser gave up", documentId: "f".repeat(64) },
  warnings: [{ code: "page_unreadable", message: "page 3 could not be read", pages: [3] }],
});

/** One run of the sink; `checkpoint` is what the run state recorded of the run before, if any. */
async function run(results: DocumentResult[], options: Record<string, unknown> = {}, warnings: string[] = [], checkpoint?: unknown) {
  const sink = await sqlite.create(sqlite.options.parse({ path: "out/archive.sqlite", ...options }), { baseDir: dir, warn: (m) => warnings.push(m), checkpoint });
  for (const r of results) await sink.write(r);
  const token = await sink.checkpoint();
  await sink.close(summary);
  last = { token, resumed: sink.resumed };
  return warnings;
}
/** The checkpoint token and `resumed` of the last `run`. */
let last: { token: unknown; resumed: boolean };
function open() {
  return new Database(join(dir, "out/archive.sqlite"), { readonly: true });
}
function dump(db: Database.Database) {
  return {
    documents: db.prepare("SELECT * FROM documents ORDER BY id").all(),
    pages: db.prepare("SELECT * FROM pages ORDER BY document_row, number").all(),
    chunks: db.prepare("SELECT * FROM chunks ORDER BY seq").all(),
  };
}
const match = (db: Database.Database, q: string) =>
  (db.prepare("SELECT c.id FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY c.seq").all(q) as { id: string }[]).map((r) => r.id);
/** FTS5's own check that the index matches the chunks table (it throws when it does not). */
const integrity = () => {
  const db = new Database(join(dir, "out/archive.sqlite"));
  try {
    db.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)").run();
    return true;
  } finally {
    db.close();
  }
};

describe("sqlite sink", () => {
  it("stores documents, pages and chunks (with the JSONL chunk ids), indexed by FTS5, in WAL mode", async () => {
    const notice = await doc("notice", [[heading("Berth Notice", 16), text(S0)], [text(S1)]], "Berth Notice");
    await run([notice, failedDoc("/in/broken.pdf")]);
    // One file at rest: the write-ahead log was folded in when the run closed.
    expect((await readdir(join(dir, "out"))).sort()).toEqual(["archive.sqlite"]);
    const db = open();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const { documents, pages, chunks } = dump(db);
    expect(documents).toMatchObject([
      { id: 1, uri: "/in/notice.pdf", document_id: "notice".padEnd(64, "0"), title: "Berth Notice", pages: 2, status: "ok", error_code: null, error: null, warnings: "[]", chunk_count: notice.status === "ok" ? notice.chunks.length : -1 },
      { id: 2, uri: "/in/broken.pdf", document_id: "f".repeat(64), title: null, pages: null, status: "failed", error_code: "damaged", error: "the parser gave up", warnings: '[{"code":"page_unreadable","message":"page 3 could not be read","pages":[3]}]', chunk_count: 0 },
    ]);
    for (const d of documents as { ingested_at: string; config_hash: string; rows_hash: string }[]) {
      expect(d.ingested_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(d.config_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(d.rows_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(pages).toEqual([
      { document_row: 1, number: 1, label: null, text: `Berth Notice\n\n${S0}`, char_start: 0, char_end: 14 + S0.length, mode: "reflow", format: "plain", flags: "[]", furniture: null, facts: FACTS, ocr: null, width: 612, height: 792 },
      { document_row: 1, number: 2, label: null, text: S1, char_start: 14 + S0.length + 2, char_end: 14 + S0.length + 2 + S1.length, mode: "reflow", format: "plain", flags: "[]", furniture: null, facts: FACTS, ocr: null, width: 612, height: 792 },
    ]);
    if (notice.status !== "ok") throw new Error("fixture");
    expect((chunks as { id: string; chunk_index: number; text: string; title: string }[]).map((c) => [c.id, c.chunk_index, c.text, c.title])).toEqual(
      notice.chunks.map((c) => [c.id, c.index, c.text, "Berth Notice"]),
    );
    expect(match(db, '"outer wall"')).toEqual([notice.chunks[notice.chunks.length - 1]!.id]);
    expect(match(db, "title:notice")).toEqual(notice.chunks.map((c) => c.id));
    expect(match(db, "cafe")).toEqual([]);
    expect(integrity()).toBe(true);
    db.close();
  });

  it("stores the pages of a document with Markdown chunks as Markdown, so that each chunk's offsets point into its pages' text", async () => {
    const pages = [page(1, [heading("Berth Notice", 16), text(S0)], { uri: "/in/md.pdf" }), page(2, [table("Quay\tBerths", "North\t12")], { uri: "/in/md.pdf" })];
    const md = await result(pages, { limits: { maxTokens: 40 } });
    if (md.status !== "ok") throw new Error("fixture");
    const chunks = chunkDocument({ documentId: md.document.documentId, uri: md.uri, pages: withBlockRoles(pages) }, { maxTokens: 40, overlapTokens: 0, minTokens: 0 }, await tokenizer(), "markdown");
    await run([{ ...md, pages: withBlockRoles(pages), chunks }]);
    const db = open();
    const rows = db.prepare("SELECT number, text, format, char_start, char_end FROM pages ORDER BY number").all() as { number: number; text: string; format: string; char_start: number; char_end: number }[];
    expect(rows.map((r) => [r.format, r.text.split("\n")[0]])).toEqual([
      ["markdown", "# Berth Notice"],
      ["markdown", "| Quay | Berths |"],
    ]);
    // The document text is its pages' texts at their offsets; every chunk is its span of it.
    const docText = rows.reduce((t, r) => t.padEnd(r.char_start, "\n") + r.text, "");
    for (const c of db.prepare("SELECT text, char_start, char_end, prefix_chars FROM chunks").all() as { text: string; char_start: number; char_end: number; prefix_chars: number }[]) {
      expect(c.text.slice(c.prefix_chars)).toBe(docText.slice(c.char_start, c.char_end));
    }
    expect(db.prepare("SELECT headings_inside FROM chunks ORDER BY chunk_index LIMIT 1").get()).toEqual({ headings_inside: JSON.stringify(["Berth Notice"]) });
    db.close();
  });

  it("changes nothing when the same batch runs again: same rows, same ids, same rowids, same times", async () => {
    const batch = async () => [await doc("notice", [[heading("Berth Notice", 16), text(S0)], [text(S1)]]), await doc("minutes", [[text(S1, S0)]]), failedDoc("/in/broken.pdf")];
    await run(await batch());
    const before = dump(open());
    await run(await batch());
    expect(dump(open())).toEqual(before);
  });

  it("replaces every row of a document that changed, in its full-text index too, and keeps the others", async () => {
    await run([await doc("notice", [[text(S0)], [text(S1)]]), await doc("minutes", [[text(S1)]])]);
    const db0 = open();
    const minutesBefore = db0.prepare("SELECT * FROM chunks WHERE document_row = 2").all();
    db0.close();
    await run([await doc("notice", [[text("The berth opens again in June after the repairs.")]]), await doc("minutes", [[text(S1)]])]);
    const db = open();
    expect(db.prepare("SELECT id, uri, pages FROM documents ORDER BY id").all()).toEqual([
      { id: 1, uri: "/in/notice.pdf", pages: 1 },
      { id: 2, uri: "/in/minutes.pdf", pages: 1 },
    ]);
    expect(db.prepare("SELECT text FROM pages WHERE document_row = 1").all()).toEqual([{ text: "The berth opens again in June after the repairs." }]);
    expect(db.prepare("SELECT * FROM chunks WHERE document_row = 2").all()).toEqual(minutesBefore);
    expect(match(db, "closes")).toEqual([]); // the old text is gone from the index
    expect(match(db, "june")).toHaveLength(1);
    expect(integrity()).toBe(true);
    db.close();
  });

  it("takes the chunks of a document that now fails out of the archive, and records the failure", async () => {
    await run([await doc("notice", [[text(S0)]])]);
    await run([failedDoc("/in/notice.pdf")]);
    const db = open();
    expect(db.prepare("SELECT id, status, error_code, chunk_count FROM documents").all()).toEqual([{ id: 1, status: "failed", error_code: "damaged", chunk_count: 0 }]);
    expect(db.prepare("SELECT count(*) AS n FROM chunks").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM pages").get()).toEqual({ n: 0 });
    expect(match(db, "berth")).toEqual([]);
    db.close();
  });

  it("removes a pruned document with its pages and chunks, and only when it prunes", async () => {
    await run([await doc("notice", [[text(S0)]]), await doc("minutes", [[text(S1)]])]);
    const { token } = last;
    const keeps = await sqlite.create(sqlite.options.parse({ path: "out/archive.sqlite" }), { baseDir: dir, warn: () => {}, checkpoint: token });
    expect([keeps.resumed, keeps.remove]).toEqual([true, undefined]);
    await keeps.close(summary);
    const prunes = await sqlite.create(sqlite.options.parse({ path: "out/archive.sqlite", prune: true }), { baseDir: dir, warn: () => {}, checkpoint: token });
    await prunes.remove!("/in/minutes.pdf", {});
    await prunes.checkpoint();
    await prunes.close(summary);
    const db = open();
    expect(db.prepare("SELECT uri FROM documents").all()).toEqual([{ uri: "/in/notice.pdf" }]);
    expect(db.prepare("SELECT DISTINCT document_row FROM chunks").all()).toEqual([{ document_row: 1 }]);
    expect(match(db, "fishing")).toEqual([]);
    expect(integrity()).toBe(true);
    db.close();
  });

  it("does not resume an archive the run state did not write (deleted, replaced), and prunes it to the documents it was given", async () => {
    await run([await doc("notice", [[text(S0)]]), await doc("old", [[text(S1)]])]);
    const { token } = last;
    await run([], {}, [], token);
    expect(last.resumed).toBe(true);
    await rm(join(dir, "out"), { recursive: true });
    await run([await doc("notice", [[text(S0)]]), await doc("old", [[text(S1)]])]);
    expect(await run([await doc("notice", [[text(S0)]])], { prune: true }, [], token)).toEqual(["out/archive.sqlite: pruned 1 document(s) no longer in the source"]);
    expect(last.resumed).toBe(false);
    const db = open();
    expect(db.prepare("SELECT uri FROM documents").all()).toEqual([{ uri: "/in/notice.pdf" }]);
    db.close();
  });

  it("leaves the archive as it was when a run is aborted, and shows a reader nothing of an open batch", async () => {
    await run([await doc("notice", [[text(S0)]])]);
    const before = dump(open());
    const sink = await sqlite.create(sqlite.options.parse({ path: "out/archive.sqlite" }), { baseDir: dir, warn: () => {} });
    await sink.write(await doc("minutes", [[text(S1)]]));
    await sink.write(await doc("notice", [[text("Rewritten.")]]));
    const reader = open();
    expect(dump(reader)).toEqual(before); // a batch is visible only once committed, whole
    await sink.abort();
    expect(dump(reader)).toEqual(before);
    expect(integrity()).toBe(true);
    reader.close();
  });

  it("commits an open batch after a second, so a reader sees a document while the next one is slow to come", async () => {
    const sink = await sqlite.create(sqlite.options.parse({ path: "out/archive.sqlite" }), { baseDir: dir, warn: () => {} });
    await sink.write(await doc("notice", [[text(S0)]]));
    const reader = open();
    expect(reader.prepare("SELECT count(*) AS n FROM documents").get()).toEqual({ n: 0 });
    await new Promise((r) => setTimeout(r, 1_300));
    expect(reader.prepare("SELECT uri FROM documents").all()).toEqual([{ uri: "/in/notice.pdf" }]);
    reader.close();
    await sink.close(summary);
  });

  it("finds other forms of a word with porter stemming, rebuilding the index and its ranking bounds when the setting changes", async () => {
    const notice = await doc("notice", [[text(S1)]]);
    const links = await doc("links", [[text("Connected pontoons and connecting quays.")]]);
    const bounded = (db: Database.Database) => (db.prepare("SELECT term FROM term_impacts ORDER BY term").all() as { term: string }[]).map((r) => r.term);
    await run([notice, links]);
    let db = open();
    expect(match(db, "connect")).toEqual([]);
    expect(bounded(db)).toEqual(["the"]); // twice in S1; connected and connecting are two words
    db.close();
    const warnings = await run([notice, links], { stemming: "porter" });
    expect(warnings).toEqual(["out/archive.sqlite: rebuilt the full-text index (tokenizer now porter unicode61 remove_diacritics 2)"]);
    db = open();
    expect(match(db, "connect")).toHaveLength(2);
    expect(bounded(db)).toEqual(["connect", "the"]); // the bounds count the stemmed words
    expect(db.prepare("SELECT value FROM archive_meta WHERE key = 'fts_tokenize'").get()).toEqual({ value: "porter unicode61 remove_diacritics 2" });
    db.close();
  });

  it("matches words without their accents (remove_diacritics 2)", async () => {
    await run([await doc("cafe", [[text("The Café Noël on the quay opens at seven.")]])]);
    const db = open();
    expect(match(db, "cafe noel")).toHaveLength(1);
    expect(match(db, '"café noël"')).toHaveLength(1);
    db.close();
  });

  it("keeps a trigram index for substring search when asked, and drops it when not", async () => {
    await run([await doc("ref", [[text("Invoice reference HX-20931-B is overdue.")]])], { trigram: true });
    let db = open();
    expect(db.prepare("SELECT count(*) AS n FROM chunks_trigram WHERE chunks_trigram MATCH ?").get('"0931-b"')).toEqual({ n: 1 });
    expect(match(db, "0931")).toEqual([]); // the word index knows only whole words: 20931
    db.close();
    expect(await run([], { trigram: false })).toEqual(["out/archive.sqlite: rebuilt the trigram index (dropped)"]);
    db = open();
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunks_trigram'").get()).toEqual({ n: 0 });
    db.close();
  });

  it("stores a split table's repeated header with the chunk, and how long it is", async () => {
    const rows = ["Berth\tVessel\tFrom", "North\tFerry\t06:00", "East\tTrawler\t07:30", "West\tYacht\t09:15", "South\tTug\t10:45"];
    await run([await doc("table", [[table(...rows)]])]);
    const db = open();
    expect(db.prepare("SELECT text, prefix_chars FROM chunks ORDER BY seq").all()).toEqual([
      { text: rows.slice(0, 3).join("\n"), prefix_chars: 0 },
      { text: [rows[0], ...rows.slice(3)].join("\n"), prefix_chars: rows[0]!.length + 1 },
    ]);
    db.close();
  });

  it("keeps what the stages decided about each page as its facts", async () => {
    const hyphenated = page(1, [text("A well-", "known berth.")], { uri: "/in/facts.pdf", documentId: "facts".padEnd(64, "0") });
    const facts = { orderSource: "structure", orderReason: "tagged", columns: "uncertain", untaggedGlyphs: 3, images: 1, scanReason: "stray_text", strayText: "7", continues: true, dehyphenated: [{ left: "well-", right: "known", result: "well-known", reason: "dictionary" }] };
    await run([await result([{ ...hyphenated, ...facts }])]);
    const db = open();
    expect(JSON.parse((db.prepare("SELECT facts FROM pages").get() as { facts: string }).facts)).toEqual(facts);
    db.close();
  });

  it("brings a version 2 archive forward: pages get facts and ocr columns, null until written again", async () => {
    await run([await doc("notice", [[text(S0)]])]);
    const db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_4 + "ALTER TABLE pages DROP COLUMN facts; ALTER TABLE pages DROP COLUMN ocr; UPDATE archive_meta SET value = '2' WHERE key = 'schema_version'");
    db.close();
    expect(await run([])).toEqual([`out/archive.sqlite: rebuilt the schema (version 2 → ${ARCHIVE_SCHEMA_VERSION})`, "out/archive.sqlite: rebuilt the full-text index"]);
    const upgraded = open();
    expect(upgraded.prepare("SELECT value FROM archive_meta WHERE key = 'schema_version'").get()).toEqual({ value: String(ARCHIVE_SCHEMA_VERSION) });
    expect(upgraded.prepare("SELECT facts, ocr FROM pages").all()).toEqual([{ facts: null, ocr: null }]);
    upgraded.close();
  });

  it("brings a version 4 archive forward: its CJK words become findable (the bigram column is filled) and documents get a path", async () => {
    const tokyo = await result([page(1, [text("港湾局の新しい事務所は東京都庁の近くにあります。")], { uri: "/in/tokyo.pdf", documentId: "tokyo".padEnd(64, "0") })], { limits: { maxTokens: 64 } });
    await run([tokyo, await doc("notice", [[text(S0)]])]);
    const db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_4);
    expect(searchArchive(db, "東京", { limit: 5 }).hits).toEqual([]);
    db.close();
    expect(await run([])).toEqual([`out/archive.sqlite: rebuilt the schema (version 4 → ${ARCHIVE_SCHEMA_VERSION})`, "out/archive.sqlite: rebuilt the full-text index"]);
    expect(integrity()).toBe(true);
    const after = open();
    expect(searchArchive(after, "東京", { limit: 5 }).hits.map((h) => [h.uri, h.path, h.highlights.map(([s, e]) => h.snippet.slice(s, e))])).toEqual([["/in/tokyo.pdf", null, ["東京"]]]);
    expect(searchArchive(after, "berth", { limit: 5 }).hits.map((h) => h.uri)).toEqual(["/in/notice.pdf"]);
    after.close();
    // Written again, a document gets its path under the source's root.
    await run([{ ...tokyo, path: "2026/tokyo.pdf" }]);
    const again = open();
    expect(again.prepare("SELECT uri, path FROM documents ORDER BY uri").all()).toEqual([
      { uri: "/in/notice.pdf", path: null },
      { uri: "/in/tokyo.pdf", path: "2026/tokyo.pdf" },
    ]);
    again.close();
  });

  it("brings a version 7 archive forward, and stores each chunk's boxes and each page's size once its document is written again", async () => {
    await run([await doc("notice", [[heading("Berth Notice", 16), text(S0)]], "Berth Notice")]);
    let db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_7);
    db.close();
    expect(await run([])).toEqual([`out/archive.sqlite: rebuilt the schema (version 7 → ${ARCHIVE_SCHEMA_VERSION})`]);
    expect(integrity()).toBe(true);
    db = open();
    expect(db.prepare("SELECT boxes FROM chunks").all()).toEqual([{ boxes: "[]" }]);
    expect(db.prepare("SELECT width, height FROM pages").all()).toEqual([{ width: null, height: null }]);
    db.close();
    // Written again from a page that says where its lines stand on the displayed page (upright, 792 pt high).
    const upright = page(1, [heading("Berth Notice", 16), text(S0)], { uri: "/in/notice.pdf", documentId: "notice".padEnd(64, "0"), toDisplay: [1, 0, 0, -1, 0, 792] });
    await run([await result([upright], { title: "Berth Notice", limits: { maxTokens: 24 } })]);
    db = open();
    const boxes = (db.prepare("SELECT boxes FROM chunks ORDER BY chunk_index").all() as { boxes: string }[]).map((r) => JSON.parse(r.boxes));
    // The heading's baseline at y 750 (42 pt from the top), the sentence's under it: one column piece from x 72.
    expect(boxes[0]).toEqual([expect.objectContaining({ page: 1, x0: 72, y0: 42 - 0.8 * 16 })]);
    expect(db.prepare("SELECT width, height FROM pages").all()).toEqual([{ width: 612, height: 792 }]);
    db.close();
  });

  it("brings a version 6 archive forward: pages say their format, chunks their headings inside and running titles", async () => {
    await run([await doc("notice", [[heading("Berth Notice", 16), text(S0)]], "Berth Notice")]);
    let db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_6);
    db.close();
    expect(await run([])).toEqual([`out/archive.sqlite: rebuilt the schema (version 6 → ${ARCHIVE_SCHEMA_VERSION})`]);
    expect(integrity()).toBe(true);
    db = open();
    // Rows written before keep the defaults until their document is written again.
    expect(db.prepare("SELECT format FROM pages").all()).toEqual([{ format: "plain" }]);
    expect(db.prepare("SELECT headings_inside, running_titles FROM chunks").all()).toEqual([{ headings_inside: "[]", running_titles: "[]" }]);
    db.close();
  });

  it("brings a version 5 archive forward: prefix indexes, ranking bounds and the filter indexes, its search unchanged", async () => {
    const notice = await doc("notice", [[heading("Berth Notice", 16), text(S0)], [text(S1)]], "Berth Notice");
    await run([notice, await doc("report", [[text(S1 + " " + S0)]])]);
    const bounds = (db: Database.Database) => ({
      terms: db.prepare("SELECT * FROM term_impacts ORDER BY term, block").all(),
      blocks: db.prepare("SELECT * FROM impact_blocks ORDER BY block").all(),
    });
    let db = open();
    const written = bounds(db);
    const hits = searchArchive(db, "the OR berth", { limit: 5 }).hits;
    db.close();
    db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_5);
    db.close();
    expect(await run([])).toEqual([`out/archive.sqlite: rebuilt the schema (version 5 → ${ARCHIVE_SCHEMA_VERSION})`, "out/archive.sqlite: rebuilt the full-text index"]);
    expect(integrity()).toBe(true);
    db = open();
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").get()).toEqual({ sql: expect.stringContaining(", prefix = '3 4')") });
    expect((db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('chunks_filter', 'pages_offsets') ORDER BY name").all() as { name: string }[]).map((r) => r.name)).toEqual(["chunks_filter", "pages_offsets"]);
    // The bounds recorded from the chunks it held are those a new archive records as it is written.
    expect(bounds(db)).toEqual(written);
    expect(written.terms.length).toBeGreaterThan(0);
    expect(searchArchive(db, "the OR berth", { limit: 5 }).hits).toEqual(hits);
    db.close();
  });

  it("refuses an archive written by a newer pagestream instead of writing into it", async () => {
    await run([]);
    const db = new Database(join(dir, "out/archive.sqlite"));
    db.prepare("UPDATE archive_meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    await expect(run([])).rejects.toThrow(`the archive has schema version 99, newer than this pagestream's ${ARCHIVE_SCHEMA_VERSION}: run a newer pagestream, or write to a new file`);
  });

  it("brings a version 1 archive forward: sha256 becomes document_id, its rows kept and searchable", async () => {
    await mkdir(join(dir, "out"), { recursive: true });
    const db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(V1_TABLES);
    db.prepare("INSERT INTO archive_meta (key, value) VALUES ('schema_version', '1'), ('archive_id', 'a1')").run();
    db.prepare("INSERT INTO documents (id, uri, sha256, title, pages, status, warnings, chunk_count, ingested_at, config_hash, content_hash) VALUES (1, '/in/old.pdf', ?, 'Old', 1, 'ok', '[]', 1, 't', 'c', 'h')").run("e".repeat(64));
    db.prepare("INSERT INTO pages (document_id, number, text, mode, flags) VALUES (1, 1, 'The old quay.', 'reflow', '[]')").run();
    db.prepare("INSERT INTO chunks (id, document_id, chunk_index, text, title, page_start, page_end, page_labels, char_start, char_end, prefix_chars, token_count, headings, flags) VALUES ('c1', 1, 0, 'The old quay.', 'Old', 1, 1, '[]', 0, 13, 0, 4, '[]', '[]')").run();
    db.close();
    const warnings: string[] = [];
    await run([], {}, warnings);
    expect(warnings).toContain(`out/archive.sqlite: rebuilt the schema (version 1 → ${ARCHIVE_SCHEMA_VERSION})`);
    const after = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
    expect(after.prepare("SELECT document_id, rows_hash FROM documents").all()).toEqual([{ document_id: "e".repeat(64), rows_hash: "h" }]);
    expect(after.prepare("SELECT document_row, text FROM pages").all()).toEqual([{ document_row: 1, text: "The old quay." }]);
    expect(after.prepare("SELECT c.id FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid WHERE chunks_fts MATCH 'quay'").all()).toEqual([{ id: "c1" }]);
    after.close();
  });

  it("brings a version 3 archive forward (no pages.ocr), keeping its documents, and writes OCR facts into it", async () => {
    await run([await doc("harbour", [[text(S0)]])]);
    const db = new Database(join(dir, "out/archive.sqlite"));
    db.exec(AS_VERSION_4 + "ALTER TABLE pages DROP COLUMN ocr; UPDATE archive_meta SET value = '3' WHERE key = 'schema_version';");
    db.close();
    const ocr = { engine: "tesseract" as const, version: "5.3.0", languages: ["eng"], dpi: 300, renderer: "pdftoppm" as const, words: 12, meanConfidence: 95.1, lowConfidenceWords: 0, skewDegrees: 1.2 };
    const scanned = await result([page(1, [text(S1)], { uri: "/in/scanned.pdf", documentId: "scanned".padEnd(64, "0"), source: "ocr", ocr, scan: true })], { limits: { maxTokens: 24 } });
    const warnings = await run([scanned]);
    expect(warnings).toEqual([`out/archive.sqlite: rebuilt the schema (version 3 → ${ARCHIVE_SCHEMA_VERSION})`, "out/archive.sqlite: rebuilt the full-text index"]);
    const after = open();
    const rows = after.prepare("SELECT d.uri, p.flags, p.ocr FROM pages p JOIN documents d ON d.id = p.document_row ORDER BY d.uri").all() as { uri: string; flags: string; ocr: string | null }[];
    expect(rows).toEqual([
      { uri: "/in/harbour.pdf", flags: "[]", ocr: null },
      { uri: "/in/scanned.pdf", flags: '["ocr","scan"]', ocr: JSON.stringify(ocr) },
    ]);
    expect((after.prepare("SELECT flags FROM chunks c JOIN documents d ON d.id = c.document_row WHERE d.uri = '/in/scanned.pdf'").all() as { flags: string }[]).map((c) => c.flags)).toEqual(['["ocr","scan"]']);
    expect(after.prepare("SELECT value FROM archive_meta WHERE key = 'schema_version'").get()).toEqual({ value: String(ARCHIVE_SCHEMA_VERSION) });
    after.close();
  });
});

/**
 * Takes an archive back to version 4, as pagestream wrote it before documents.path and the CJK
 * bigram column: the full-text index over text and title only, kept by the same triggers.
 */
/** A version 6 archive taken back to version 5: no prefix indexes, ranking bounds or filter indexes. */
/** An archive written by pagestream before schema 8: no chunks.boxes, no pages.width or height. */
const AS_VERSION_7 = `
ALTER TABLE chunks DROP COLUMN boxes;
ALTER TABLE pages DROP COLUMN width;
ALTER TABLE pages DROP COLUMN height;
UPDATE archive_meta SET value = '7' WHERE key = 'schema_version';
`;

/** An archive written by pagestream before schema 7: no pages.format, no chunks.headings_inside or running_titles. */
const AS_VERSION_6 = AS_VERSION_7 + `
ALTER TABLE pages DROP COLUMN format;
ALTER TABLE chunks DROP COLUMN headings_inside;
ALTER TABLE chunks DROP COLUMN running_titles;
UPDATE archive_meta SET value = '6' WHERE key = 'schema_version';
`;

const AS_VERSION_5 = AS_VERSION_6 + `
DROP TABLE term_impacts; DROP TABLE impact_blocks; DROP INDEX chunks_filter; DROP INDEX pages_offsets;
DROP TRIGGER chunks_fts_insert; DROP TRIGGER chunks_fts_delete; DROP TRIGGER chunks_fts_update; DROP TABLE chunks_fts;
CREATE VIRTUAL TABLE chunks_fts USING fts5(text, title, cjk, content = 'chunks', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, text, title, cjk) VALUES (new.seq, new.text, new.title, new.cjk);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, title, cjk) VALUES ('delete', old.seq, old.text, old.title, old.cjk);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, title, cjk) VALUES ('delete', old.seq, old.text, old.title, old.cjk);
  INSERT INTO chunks_fts (rowid, text, title, cjk) VALUES (new.seq, new.text, new.title, new.cjk);
END;
INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild');
UPDATE archive_meta SET value = '5' WHERE key = 'schema_version';
`;

const AS_VERSION_4 = AS_VERSION_6 + `
DROP TABLE term_impacts; DROP TABLE impact_blocks; DROP INDEX chunks_filter; DROP INDEX pages_offsets;
DROP TRIGGER chunks_fts_insert; DROP TRIGGER chunks_fts_delete; DROP TRIGGER chunks_fts_update; DROP TABLE chunks_fts;
ALTER TABLE chunks DROP COLUMN cjk;
ALTER TABLE documents DROP COLUMN path;
CREATE VIRTUAL TABLE chunks_fts USING fts5(text, title, content = 'chunks', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, text, title) VALUES (new.seq, new.text, new.title);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.seq, old.text, old.title);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.seq, old.text, old.title);
  INSERT INTO chunks_fts (rowid, text, title) VALUES (new.seq, new.text, new.title);
END;
INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild');
UPDATE archive_meta SET value = '4' WHERE key = 'schema_version';
`;

/** The tables of a version 1 archive, as pagestream wrote them before documentId had one name. */
const V1_TABLES = `
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
