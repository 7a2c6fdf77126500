/** Searching an archive: the query translation, ranking, pages and snippets, and hostile queries. */
import Database from "better-sqlite3";
import fc from "fast-check";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentResult } from "../src/core/records.js";
import { emptySummary } from "../src/run/delivery.js";
import { cleanSnippet, markedSpans, matchesInDocument, QueryError, searchArchive } from "../src/sinks/sqlite/search.js";
import { hasPrefix, parseQuery, positiveTerms, QUERY_LIMITS, toFtsQuery, toTrigramQuery } from "../src/sinks/sqlite/fts-query.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { heading, page, result, text } from "./stages/chunk-fixtures.js";

describe("search query → FTS5 MATCH", () => {
  it.each([
    ["harbour dues", '"harbour" "dues"'],
    ['"written notice"', '"written notice"'],
    ['"written   notice"  dues', '"written   notice" "dues"'],
    ["dredg*", '"dredg" *'],
    ['"one two thr"*', '"one two thr" *'],
    ["title:report", '"title:report"'],
    ["^start col:x {a b}", '"^start" "col:x" "{a" "b}"'],
    ['say "hi', '"say" "hi"'],
    ['he said ""quoted""', '"he" "said" "quoted"'],
    ['a"b', '"a" "b"'],
    ["café – 2026 & co", '"café" "2026" "co"'],
    ["xyz*yyy*", '"xyz*yyy" *'],
    // operators
    ["salt AND pepper", '"salt" "pepper"'],
    ["berth OR quay", '"berth" OR "quay"'],
    ["notice NOT draft", '"notice" NOT "draft"'],
    ["a OR b c", '"a" OR ("b" "c")'],
    ["(berth OR quay) dues", '("berth" OR "quay") AND "dues"'],
    ["dues (berth OR quay", '"dues" AND ("berth" OR "quay")'],
    ["a b NOT c", '"a" AND ("b" NOT "c")'],
    ["a NOT (b OR c)", '"a" NOT ("b" OR "c")'],
    ["a NOT b NOT c", '("a" NOT "b") NOT "c"'],
    ["x NOT NEAR(a b)", '("x" NOT "NEAR(a") AND "b)"'],
    ["section 3(b)", '"section" "3(b)"'],
    ["((a))", '"a"'],
    // words, not operators: lower case, quoted, or part of a word
    ["salt and pepper", '"salt" "and" "pepper"'],
    ['"AND" OR "NOT"', '"AND" OR "NOT"'],
    ["ANDROID ORDER", '"ANDROID" "ORDER"'],
    // repeats count once
    ["dues dues DUES", '"dues" "DUES"'],
    ["a OR a OR b", '"a" OR "b"'],
  ])("%s → %s", (query, expected) => {
    expect(toFtsQuery(query)).toBe(expected);
  });

  it.each([[""], ["   "], ['""'], ["*"], ["- – &"], ['"'], ['"***"'], ["("], ["( )"]])("refuses %j: nothing to search for", (query) => {
    expect(() => toFtsQuery(query)).toThrow(expect.objectContaining({ code: "empty" }));
    expect(() => toFtsQuery(query)).toThrow(/^nothing to search for in .*: give a word, a "phrase in quotes" or a prefix\*$/);
  });

  it.each([
    ["AND", "dangling_operator"],
    ["a OR", "dangling_operator"],
    ["OR b", "dangling_operator"],
    ["a AND AND b", "dangling_operator"],
    ["a (OR b)", "dangling_operator"],
    ["a NOT", "dangling_operator"],
    ["a NOT NOT b", "dangling_operator"],
    ["NOT draft", "only_not"],
    ["a OR NOT b", "only_not"],
    ["(NOT b) a", "only_not"],
    ["a () b", "empty_group"],
    ["t*", "short_prefix"],
    ["ab* harbour", "short_prefix"],
    ['"east wa"*', "short_prefix"],
    ["a NOT b*", "short_prefix"],
  ])("refuses %j with %s", (query, code) => {
    expect(() => toFtsQuery(query)).toThrow(expect.objectContaining({ name: "QueryError", code }));
  });

  it("says what is wrong with a malformed query in a sentence", () => {
    expect(() => toFtsQuery("notice OR")).toThrow('OR needs a word, a "phrase" or a (group) on each side, as in berth OR quay; to search for the word itself, write it in quotes ("OR") or in lower case');
    expect(() => toFtsQuery("NOT draft")).toThrow("NOT needs something to search for before it, as in notice NOT draft: the index can find what has a word, not list everything that lacks one");
    expect(() => toFtsQuery("th*")).toThrow('"th*" is too short a prefix: give at least 3 letters before the *, or the whole word');
  });

  it("caps the length and the words of a query (issue 20 §8: 1,000 repeated words took a minute)", () => {
    expect(() => toFtsQuery("harbour ".repeat(200))).toThrow(expect.objectContaining({ code: "too_long" }));
    expect(() => toFtsQuery("harbour ".repeat(200))).toThrow("the query is 1,600 characters long; at most 1,000 are searched");
    const words = Array.from({ length: QUERY_LIMITS.maxTerms + 1 }, (_, i) => `w${i}`);
    expect(() => toFtsQuery(words.join(" "))).toThrow(`the query has 65 words; at most 64 are searched: keep the ones that tell the documents you want apart`);
    expect(() => toFtsQuery(`"${words.join(" ")}"`)).toThrow(expect.objectContaining({ code: "too_many_terms" }));
    expect(toFtsQuery(words.slice(0, QUERY_LIMITS.maxTerms).join(" "))).toMatch(/^"w0" .* "w63"$/);
    // Repeats are dropped before counting: 199 times the same word is one word.
    expect(toFtsQuery(Array(199).fill("the").join(" "))).toBe('"the"');
    expect(() => toTrigramQuery("x".repeat(1001))).toThrow(expect.objectContaining({ code: "too_long" }));
  });

  it("keeps phrases and prefixes apart in the parsed terms, and knows which terms a page highlights", () => {
    const node = parseQuery('berth "east wall" dredg* NOT silt');
    expect(positiveTerms(node)).toEqual([
      { type: "term", text: "berth", phrase: false, prefix: false },
      { type: "term", text: "east wall", phrase: true, prefix: false },
      { type: "term", text: "dredg", phrase: false, prefix: true },
    ]);
    expect(hasPrefix(node)).toBe(true);
    expect(hasPrefix(parseQuery("a NOT b"))).toBe(false);
  });

  it("makes a substring search one literal string, of three characters at least", () => {
    expect(toTrigramQuery(' 0931-"b" ')).toBe('"0931-""b"""');
    expect(() => toTrigramQuery("ab")).toThrow('a substring search needs at least 3 characters, got "ab"');
  });
});

describe("the operators, as FTS5 answers them", () => {
  // Four rows, every combination of "alpha" and "beta", and "gamma" in two: each expression the
  // parser writes must be one FTS5 accepts and means what the query says.
  const fts = new Database(":memory:");
  fts.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')");
  const rows = ["alpha beta gamma", "alpha", "beta gamma", "delta"];
  rows.forEach((text, i) => fts.prepare("INSERT INTO t (rowid, text) VALUES (?, ?)").run(i + 1, text));
  const found = (query: string) => (fts.prepare("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid").all(toFtsQuery(query)) as { rowid: number }[]).map((r) => r.rowid);

  it.each([
    ["alpha beta", [1]],
    ["alpha AND beta", [1]],
    ["alpha OR beta", [1, 2, 3]],
    ["alpha NOT beta", [2]],
    ["beta NOT alpha", [3]],
    ["(alpha OR delta) NOT gamma", [2, 4]],
    ["alpha OR beta gamma", [1, 2, 3]],
    ["gamma NOT (alpha OR delta)", [3]],
    ['"beta gamma" OR delta', [1, 3, 4]],
    ["gam* NOT alp*", [3]],
    ["ALPHA", [1, 2]],
  ])("%s finds rows %j", (query, rowids) => {
    expect(found(query)).toEqual(rowids);
  });

  it("writes only expressions FTS5 accepts, or refuses the query with a QueryError", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("alpha", "beta", "AND", "OR", "NOT", "(", ")", '"', "gam*", "x)", "(y", " "), { maxLength: 12 }), (parts) => {
        const query = parts.join(" ");
        let match: string;
        try {
          match = toFtsQuery(query);
        } catch (err) {
          if (err instanceof QueryError) return;
          throw err;
        }
        fts.prepare("SELECT count(*) FROM t WHERE t MATCH ?").get(match);
      }),
      { numRuns: 500 },
    );
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
    expect(searchArchive(db, "channel AND good", { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/report.pdf"]);
    expect(searchArchive(db, "(written notice)", { limit: 10 }).hits.map((h) => h.uri)).toEqual(["/archive/contract.pdf"]);
    expect(searchArchive(db, "NEAR(written", { limit: 10 }).hits.map((h) => h.uri)).toEqual([]); // the words "near" and "written", not FTS5's NEAR
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

  it("answers AND, OR and NOT over the archive", () => {
    const uris = (q: string) => new Set(searchArchive(db, q, { limit: 50 }).hits.map((h) => h.uri));
    expect(uris("seabird OR notice")).toEqual(new Set(["/archive/notes/minutes.pdf", "/archive/contract.pdf"]));
    expect(uris("in NOT (notice OR seabird)")).toEqual(new Set(["/archive/report.pdf"]));
    expect(uris('"written notice" AND agreement')).toEqual(new Set(["/archive/contract.pdf"]));
  });

  it("pages through the hits: the next page starts where the last ended, and says when there is no more", () => {
    const all = searchArchive(db, "in", { limit: 50 });
    expect(all.more).toBe(false);
    const first = searchArchive(db, "in", { limit: 2 });
    const second = searchArchive(db, "in", { limit: 2, offset: 2 });
    expect(first.more).toBe(true);
    expect([...first.hits, ...second.hits].map((h) => h.chunkId)).toEqual(all.hits.slice(0, 4).map((h) => h.chunkId));
    const last = searchArchive(db, "in", { limit: 2, offset: all.hits.length - 1 });
    expect([last.hits.length, last.more]).toEqual([1, false]);
  });

  it("filters by chunk flags (any of a set, every set) and by when a document was written", () => {
    const writable = new Database(join(dir, "archive.sqlite"));
    const minutes = "/archive/notes/minutes.pdf";
    writable.prepare(`UPDATE chunks SET flags = '["ocr","scan"]' WHERE document_row = (SELECT id FROM documents WHERE uri = ?)`).run(minutes);
    writable.prepare("UPDATE documents SET ingested_at = '2026-01-05T10:00:00.000Z' WHERE uri = ?").run(minutes);
    try {
      const uris = (options: Partial<Parameters<typeof searchArchive>[2]>) => new Set(searchArchive(db, "in", { limit: 50, ...options }).hits.map((h) => h.uri));
      expect(uris({ flags: [["scan"]] })).toEqual(new Set([minutes]));
      expect(uris({ flags: [["ocr", "ocr_layer"], ["scan"]] })).toEqual(new Set([minutes]));
      expect(uris({ flags: [["ocr_layer"]] })).toEqual(new Set());
      expect(uris({ ingestedBefore: "2026-01-06" })).toEqual(new Set([minutes]));
      expect(uris({ ingestedSince: "2026-01-06" })).toEqual(new Set(["/archive/report.pdf", "/archive/contract.pdf"]));
    } finally {
      writable.prepare("UPDATE chunks SET flags = '[]' WHERE document_row = (SELECT id FROM documents WHERE uri = ?)").run(minutes);
      writable.close();
    }
  });

  it("stops a search past its time limit with a QueryError, not a stalled process", () => {
    expect(() => searchArchive(db, "in", { limit: 10, timeLimitMs: 0 })).toThrow(expect.objectContaining({ code: "too_slow" }));
    expect(() => searchArchive(db, "in", { limit: 10, timeLimitMs: 0 })).toThrow(/^the search was stopped after 0 s: the query matches too much of the archive to rank in time/);
    expect(searchArchive(db, "in", { limit: 10 }).hits.length).toBeGreaterThan(0); // the connection is fine afterwards
  });

  it("gives the same highlights for a prefix query (one pass over its matches) as for the words it expands to", () => {
    const prefix = searchArchive(db, "seabir*", { limit: 10 }).hits;
    const word = searchArchive(db, "seabird", { limit: 10 }).hits;
    expect(prefix.map((h) => [h.chunkId, h.snippet, h.highlights])).toEqual(word.map((h) => [h.chunkId, h.snippet, h.highlights]));
  });

  it("finds where a query matches in a document's pages, split at a page break, without repeats from the overlap", () => {
    const row = (db.prepare("SELECT id FROM documents WHERE uri = '/archive/report.pdf'").get() as { id: number }).id;
    const pages = db.prepare("SELECT number, text FROM pages WHERE document_row = ? ORDER BY number").all(row) as { number: number; text: string }[];
    const matches = matchesInDocument(db, '"will be watched closely"', row);
    expect(matches.map((m) => [m.page, pages[m.page - 1]!.text.slice(m.start, m.end)])).toEqual([
      [1, "will be"],
      [2, "watched closely"],
    ]);
    const words = matchesInDocument(db, "the", row).map((m) => [m.page, pages[m.page - 1]!.text.slice(m.start, m.end).toLowerCase()]);
    expect(words.length).toBeGreaterThan(1);
    expect(words.every(([, w]) => w === "the")).toBe(true);
    const all = matchesInDocument(db, "the", row);
    expect(new Set(all.map((m) => `${m.page}:${m.start}`)).size).toBe(all.length);
    expect(matchesInDocument(db, "notice", row)).toEqual([]);
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
