/**
 * Chinese, Japanese and Korean words in the archive (issue 14 §7): unicode61 makes a CJK
 * sentence one token, so a word inside it was never found; the bigram column finds a word of
 * two characters or more wherever it stands. And FTS5's own syntax with --fts.
 */
import Database from "better-sqlite3";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentResult } from "../src/core/records.js";
import { emptySummary } from "../src/run/delivery.js";
import { cjkIndexText, tokenPieces } from "../src/sinks/sqlite/cjk-bigrams.js";
import { toFtsQuery } from "../src/sinks/sqlite/fts-query.js";
import { matchesInDocument, searchArchive } from "../src/sinks/sqlite/search.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { page, result, text } from "./stages/chunk-fixtures.js";

const JAPANESE = "港湾局の新しい事務所は東京都庁の近くにあります。";
const CHINESE = "上海港的集装箱吞吐量今年增长了百分之五。";
const MIXED = "新iPhone专卖店在码头旁边开业。";
const KOREAN = "부산항의 물동량이 증가했습니다.";

describe("CJK text as the bigram column holds it", () => {
  it.each([
    ["東京都庁", "東京 京都 都庁"],
    ["港", "港"],
    ["Harbour dues rose.", ""],
    ["新iPhone专卖店", "新 iPhone 专卖 卖店"],
    ["東京 and 大阪", "東京 大阪"],
    ["タワー", "タワ ワー"],
    ["부산항의", "부산 산항 항의"],
  ])("%s → %j", (input, expected) => {
    expect(cjkIndexText(input)).toBe(expected);
  });

  it("pairs every two neighbouring characters of a run, and keeps other scripts whole", () => {
    expect(tokenPieces("増長率2026年")).toEqual(["増長", "長率", "2026", "年"]);
  });
});

describe("CJK query terms → FTS5 MATCH", () => {
  it.each([
    ["東京", 'cjk : "東京"'],
    ["東京都庁", 'cjk : "東京 京都 都庁"'],
    ["iPhone专卖店", 'cjk : "iPhone 专卖 卖店"'],
    ['"东京 Tower"', '(cjk : "东京" AND "Tower")'],
    ["harbour 東京", '"harbour" AND (cjk : "東京")'],
    ["東京 OR 大阪", '(cjk : "東京") OR (cjk : "大阪")'],
    ["東京都*", 'cjk : "東京 京都" *'],
    ["harbour dues", '"harbour" "dues"'],
  ])("%s → %s", (query, expected) => {
    expect(toFtsQuery(query)).toBe(expected);
  });

  it("searches an archive older than the bigram column by its text alone", () => {
    expect(toFtsQuery("東京", { cjk: false })).toBe('"東京"');
  });

  it("refuses a lone CJK character with a sentence: the index holds pairs", () => {
    expect(() => toFtsQuery("书")).toThrow(expect.objectContaining({ code: "short_term" }));
    expect(() => toFtsQuery("harbour 港")).toThrow('"港" is a single Chinese, Japanese or Korean character: the index holds such text as pairs of characters, so search for two or more together (the word it is part of)');
  });
});

let dir: string;
let db: Database.Database;
const docs: DocumentResult[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-cjk-"));
  const doc = async (name: string, pages: string[][]) =>
    result(
      pages.map((lines, i) => page(i + 1, [text(...lines)], { uri: `/archive/${name}.pdf`, documentId: name.padEnd(64, "0") })),
      { limits: { maxTokens: 400, overlapTokens: 0, minTokens: 0 } },
    );
  docs.push(await doc("tokyo", [[JAPANESE], ["Harbour dues rose in the first quarter."]]));
  docs.push(await doc("shanghai", [[CHINESE, MIXED]]));
  docs.push(await doc("busan", [[KOREAN]]));
  const sink = await sqlite.create(sqlite.options.parse({ path: "archive.sqlite" }), { baseDir: dir, warn: () => {} });
  for (const d of docs) await sink.write(d);
  await sink.close({ ...emptySummary(), complete: true });
  db = new Database(join(dir, "archive.sqlite"), { readonly: true });
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const found = (query: string) => searchArchive(db, query, { limit: 10 }).hits.map((h) => h.uri.split("/").pop());
const marked = (query: string) => searchArchive(db, query, { limit: 10 }).hits.map((h) => h.highlights.map(([s, e]) => h.snippet.slice(s, e)));

describe("searching CJK text", () => {
  it("finds nothing by the text column alone: unicode61 makes a CJK sentence one token", () => {
    const plain = db.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?");
    expect(plain.get('text : "東京"')).toEqual({ n: 0 });
  });

  it("finds a two-character word inside a longer run, in Japanese, Chinese and Korean", () => {
    expect(found("東京")).toEqual(["tokyo.pdf"]);
    expect(found("増長")).toEqual([]);
    expect(found("增长")).toEqual(["shanghai.pdf"]);
    expect(found("集装箱")).toEqual(["shanghai.pdf"]);
    expect(found("물동")).toEqual(["busan.pdf"]);
  });

  it("finds only the characters in that order: two pairs that each occur are not a word", () => {
    // 東京 and 京都 both occur in 東京都庁; 京東 does not.
    expect(found("京東")).toEqual([]);
    expect(found("都庁")).toEqual(["tokyo.pdf"]);
  });

  it("finds a word of Latin letters glued to CJK characters, and the two together", () => {
    expect(found("iPhone")).toEqual(["shanghai.pdf"]);
    expect(found("iPhone专卖店")).toEqual(["shanghai.pdf"]);
  });

  it("marks the CJK match in the snippet, and gives its page", () => {
    expect(marked("東京")).toEqual([["東京"]]);
    const [hit] = searchArchive(db, "增长 OR 集装箱", { limit: 10 }).hits;
    expect(hit!.highlights.map(([s, e]) => hit!.snippet.slice(s, e))).toEqual(["集装箱", "增长"]);
    expect(hit!.matchPages).toEqual([1, 1]);
  });

  it("combines CJK words with English ones and the operators", () => {
    expect(found("東京 harbour")).toEqual(["tokyo.pdf"]);
    expect(found("東京 OR 增长").sort()).toEqual(["shanghai.pdf", "tokyo.pdf"]);
  });

  it("places a CJK match in the document's pages, as the web page highlights it", () => {
    const row = (db.prepare("SELECT id FROM documents WHERE uri = '/archive/tokyo.pdf'").get() as { id: number }).id;
    const pages = db.prepare("SELECT number, text FROM pages WHERE document_row = ? ORDER BY number").all(row) as { number: number; text: string }[];
    expect(matchesInDocument(db, "東京都庁", row).map((m) => [m.page, pages[m.page - 1]!.text.slice(m.start, m.end)])).toEqual([[1, "東京都庁"]]);
  });
});

describe("--fts: FTS5's own syntax", () => {
  it("hands NEAR, column filters and ^ to FTS5", () => {
    expect(searchArchive(db, "NEAR(harbour quarter, 5)", { limit: 10, fts: true }).hits.map((h) => h.uri)).toEqual(["/archive/tokyo.pdf"]);
    expect(searchArchive(db, "cjk : ^港湾", { limit: 10, fts: true }).hits.map((h) => h.uri)).toEqual(["/archive/tokyo.pdf"]);
    expect(searchArchive(db, "cjk : ^東京", { limit: 10, fts: true }).hits).toEqual([]);
    expect(searchArchive(db, 'cjk : "東京"', { limit: 10, fts: true }).hits.map((h) => h.uri)).toEqual(["/archive/tokyo.pdf"]);
  });

  it("turns FTS5's complaint about a malformed query into a sentence", () => {
    expect(() => searchArchive(db, "NEAR(harbour", { limit: 10, fts: true })).toThrow(expect.objectContaining({ code: "fts_syntax" }));
    expect(() => searchArchive(db, "NEAR(harbour", { limit: 10, fts: true })).toThrow(/^FTS5 cannot read this query \(.+\): see its syntax at https:\/\/www\.sqlite\.org\/fts5\.html/);
    expect(() => searchArchive(db, "body : harbour", { limit: 10, fts: true })).toThrow(/no such column: body/);
  });
});
