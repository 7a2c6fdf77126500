/** Searching an archive: the query translation, ranking, pages and snippets, and hostile queries. */
import Database from "better-sqlite3";
import fc from "fast-check";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentResult } from "../src/core/records.js";
import { emptySummary } from "../src/run/delivery.js";
import { cleanSnippet, markedSpans, QueryError, searchArchive } from "../src/sinks/sqlite/search.js";
import { parseQuery, toFtsQuery, toTrigramQuery } from "../src/sinks/sqlite/fts-query.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { heading, page, result, text } from "./stages/chunk-fixtures.js";

describe("search query → FTS5 MATCH", () => {
  it.each([
    ["harbour dues", '"harbour" "dues"'],
    ['"written notice"', '"written notice"'],
    ['"written   notice"  dues', '"written   notice" "dues"'],
    ["dredg*", '"dredg" *'],
    ['"one two thr"*', '"one two thr" *'],
    ["salt AND pepper", '"salt" "AND" "pepper"'],
    ["NOT NEAR(a b)", '"NOT" "NEAR(a" "b)"'],
    ["title:report", '"title:report"'],
    ["^start col:x {a b}", '"^start" "col:x" "{a" "b}"'],
    ['say "hi', '"say" "hi"'],
    ['he said ""quoted""', '"he" "said" "quoted"'],
    ['a"b', '"a" "b"'],
    ["café – 2026 & co", '"café" "2026" "co"'],
    ["x*y*", '"x*y" *'],
  ])("%s → %s", (query, expected) => {
    expect(toFtsQuery(query)).toBe(expected);
  });

  it.each([[""], ["   "], ['""'], ["*"], ["- – &"], ['"'], ['"***"']])("refuses %j: nothing to search for", (query) => {
    expect(() => toFtsQuery(query)).toThrow(QueryError);
    expect(() => toFtsQuery(query)).toThrow(/^nothing to search for in .*: give a word, a "phrase in quotes" or a prefix\*$/);
  });

  it("keeps phrases and prefixes apart in the parsed terms", () => {
    expect(parseQuery('berth "east wall" dredg*')).toEqual([
      { text: "berth", phrase: false, prefix: false },
      { text: "east wall", phrase: true, prefix: false },
      { text: "dredg", phrase: false, prefix: true },
    ]);
  });

  it("makes a substring search one literal string, of three characters at least", () => {
    expect(toTrigramQuery(' 0931-"b" ')).toBe('"0931-""b"""');
    expect(() => toTrigramQuery("ab")).toThrow('a substring search needs at least 3 characters, got "ab"');
  });
});

describe("snippets and highlights", () => {
  it("finds the marked matches in highlight() output", () => {
    expect(markedSpans("and \u0001will be\u0002 watched \u0001closely\u0002")).toEqual([
      [4, 11],
      [20, 27],
    ]);
  });

  it("collapses white space in a snippet and keeps the highlights on the matched words", () => {
    expect(cleanSnippet("…will be\n\nPage 2 of 4\n\n\u0001watched\u0002  \u0001closely\u0002 over…")).toEqual({
      snippet: "…will be Page 2 of 4 watched closely over…",
      highlights: [
        [21, 28],
        [29, 36],
      ],
    });
  });
});

let dir: string;
let db: Database.Database;
let docs: DocumentResult[];
const ok = (r: DocumentResult) => {
  if (r.status !== "ok") throw new Error("fixture");
  return r;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-search-"));
  const docPages = (name: string, pages: Parameters<typeof page>[1][]) => pages.map((ps, i) => page(i + 1, ps, { uri: `/archive/${name}.pdf`, documentId: name.padEnd(64, "0") }));
  docs = [
    await result(
      docPages("report", [
        [heading("Quarterly Report", 18), text("Vessel arrivals rose in the first quarter.", "The hydrographic survey found the channel in good order. A shoal is forming off the breakwater, however, and will be")],
        [text("watched closely over the summer before any decision is taken on dredging it."), heading("Finance", 14), text("Income was four percent above budget.")],
      ]),
      { title: "Harbour Report", limits: { maxTokens: 48, overlapTokens: 8, minTokens: 0 } },
    ),
    await result(docPages("contract", [[text("Either party may end this Agreement by giving not less than three months' written notice.")], [text("Notices shall be in writing.")]]), {
      title: "Service Agreement",
      limits: { maxTokens: 48, overlapTokens: 8 },
    }),
    await result(docPages("notes/minutes", [[text("The committee agreed to repeat the seabird count in October.")]]), { limits: { maxTokens: 48, overlapTokens: 8 } }),
  ];
  const sink = await sqlite.create(sqlite.options.parse({ path: "archive.sqlite", trigram: true }), { baseDir: dir, warn: () => {} });
  for (const d of docs) await sink.write(d);
  await sink.close({ ...emptySummary(), documents: 3, ok: 3, pages: 5, complete: true });
  db = new Database(join(dir, "archive.sqlite"), { readonly: true });
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe("searching an archive", () => {
  it("finds a phrase that runs across a page break, with the pages of the match", () => {
    const { match, hits } = searchArchive(db, '"will be watched closely"', { limit: 10 });
    expect(match).toBe('"will be watched closely"');
    expect(hits.map((h) => [h.uri, h.matchPages, h.title])).toEqual([["/archive/report.pdf", [1, 2], "Harbour Report"]]);
    const [hit] = hits;
    expect(hit!.snippet).toContain("and will be watched closely over the summer");
    expect(hit!.highlights.map(([s, e]) => hit!.snippet.slice(s, e))).toEqual(["will be watched closely"]);
    const chunk = ok(docs[0]!).chunks.find((c) => c.id === hit!.chunkId)!;
    expect([hit!.pageStart, hit!.pageEnd]).toEqual([chunk.pageStart, chunk.pageEnd]);
  });

  it("gives the match's own pages, which may be fewer than the chunk's", () => {
    const [hit] = searchArchive(db, "dredging", { limit: 1 }).hits;
    expect(hit!.matchPages).toEqual([2, 2]);
  });

  it("ranks by bm25, best first, and says how well each hit matched", () => {
    const { hits } = searchArchive(db, "in", { limit: 10 });
    expect(hits.length).toBeGreaterThan(2);
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The shortest chunk that holds the word ranks first (bm25 normalises by length).
    expect(hits[0]!.uri).toBe("/archive/notes/minutes.pdf");
  });

  it("finds words by prefix", () => {
    expect(searchArchive(db, "seabir*", { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/notes/minutes.pdf"]);
  });

  it("filters by document id (or its first 8 hex digits), by uri and by path prefix", () => {
    const all = searchArchive(db, "in", { limit: 50 }).hits;
    expect(new Set(all.map((h) => h.uri)).size).toBe(3);
    const id = "contract".padEnd(64, "0");
    for (const document of [id, id.slice(0, 8).toUpperCase(), "/archive/contract.pdf"]) {
      expect(new Set(searchArchive(db, "in", { limit: 50, document }).hits.map((h) => h.uri))).toEqual(new Set(["/archive/contract.pdf"]));
    }
    expect(searchArchive(db, "in", { limit: 50, document: "contrac" }).hits).toEqual([]); // too short to be an id prefix
    expect(new Set(searchArchive(db, "in", { limit: 50, pathPrefix: "/archive/notes/" }).hits.map((h) => h.uri))).toEqual(new Set(["/archive/notes/minutes.pdf"]));
  });

  it("shows a match the overlap repeats in two chunks once", () => {
    const { hits } = searchArchive(db, '"three months"', { limit: 10 });
    expect(hits).toHaveLength(1);
  });

  it("finds a substring inside a word with the trigram index", () => {
    const { hits } = searchArchive(db, "graphic surv", { limit: 10, substring: true });
    expect(hits.map((h) => [h.uri, h.highlights.map(([s, e]) => h.snippet.slice(s, e))])).toEqual([["/archive/report.pdf", ["graphic surv"]]]);
  });

  it("answers a query FTS5 would choke on as words, never with a crash or a silent nothing", () => {
    expect(searchArchive(db, "channel AND good", { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/report.pdf"]); // "and" is a word here
    expect(searchArchive(db, "(written notice)", { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/contract.pdf"]);
    expect(searchArchive(db, "title:agreement", { limit: 10 }).hits).toEqual([]); // the words "title" and "agreement", not a column filter
    expect(searchArchive(db, 'written "notice', { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/contract.pdf"]);
    expect(() => searchArchive(db, '"', { limit: 10 })).toThrow(QueryError);
  });

  it("never throws anything but a QueryError, whatever the query", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: fc.constantFrom("a", "e", " ", '"', "*", "(", ")", ":", "^", "-", "+", "{", "}", "N", "O", "R", "A", "D", "T", "é", "'", ",", "\\", "\u0000") }), (query) => {
        try {
          searchArchive(db, query, { limit: 5 });
        } catch (err) {
          if (!(err instanceof QueryError)) throw err;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("says when the archive has no trigram index for a substring search", async () => {
    const plain = join(dir, "plain.sqlite");
    const sink = await sqlite.create(sqlite.options.parse({ path: plain }), { baseDir: dir, warn: () => {} });
    await sink.close({ ...emptySummary(), complete: true });
    const other = new Database(plain, { readonly: true });
    expect(() => searchArchive(other, "abc", { limit: 5, substring: true })).toThrow(
      "the archive has no trigram index for substring search: set `trigram: true` on its sqlite sink and run the pipeline again",
    );
    other.close();
  });
});
