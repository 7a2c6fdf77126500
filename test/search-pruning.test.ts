/**
 * Ranking with bounds (term-impacts.ts, pruned-ranking.ts) gives the very hits, scores and order
 * of ranking every match: a generated archive of ~5,000 chunks, searched with its bounds and as a
 * copy without them, must answer every query alike — chunks of every length (a short chunk beats
 * a long one with more occurrences), blocks where no word occurs twice, titles that repeat a
 * word, CJK text, documents replaced and removed (bounds left too high), filters and pages far
 * down.
 */
import Database from "better-sqlite3";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChunkRecord, DocumentResult, PageRecord } from "../src/core/records.js";
import { emptySummary } from "../src/run/delivery.js";
import { asciiRowTokens, FtsTokens } from "../src/sinks/sqlite/fts-tokens.js";
import { alternativePhrases, parseQuery, prefixLengths } from "../src/sinks/sqlite/fts-query.js";
import { readVarints } from "../src/sinks/sqlite/sqlite-varints.js";
import { searchArchive, type SearchOptions } from "../src/sinks/sqlite/search.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { addPoint, MAX_POINTS } from "../src/sinks/sqlite/term-impacts.js";

/** A seeded generator (mulberry32), so the archive is the same on every run. */
function generator(seed: number) {
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const common = ["the", "of", "harbour", "berth", "and", "to"];
  const middling = Array.from({ length: 120 }, (_, i) => `word${i}`);
  const rare = Array.from({ length: 1500 }, (_, i) => `rare${i}x`);
  // Zipf-like: a few words in most chunks, many in a few.
  const word = () => {
    const r = random();
    if (r < 0.3) return common[Math.floor(random() * random() * common.length)]!;
    if (r < 0.75) return middling[Math.floor(random() * random() * middling.length)]!;
    return rare[Math.floor(random() * rare.length)]!;
  };
  return { random, between, word, common, middling, rare };
}

const CJK_WORDS = ["東京", "京都", "港湾", "事務所", "增长", "市场"];

function archiveResults(seed: number, documents: number, prefix = "doc"): DocumentResult[] {
  const g = generator(seed);
  return Array.from({ length: documents }, (_, d) => {
    const documentId = `${prefix}${d}`.padEnd(64, "0");
    const uri = `/archive/${d % 2 ? "odd" : "even"}/${prefix}-${d}.pdf`;
    // Every 30th document is 200 chunks of a word or two, untitled: whole blocks where no word
    // occurs twice (nothing recorded), yet whose chunks, the shortest, rank first for "quay",
    // which every other chunk holds once, and a few twice.
    const tiny = d % 30 === 5;
    const titleWords = Array.from({ length: g.between(1, 4) }, g.word);
    // Some titles say a word twice: it weighs 1 in every chunk of the document.
    const title = tiny ? "" : (g.random() < 0.3 ? [...titleWords, titleWords[0]!] : titleWords).join(" ");
    const count = tiny ? 200 : g.between(20, 150);
    let offset = 0;
    const chunks: ChunkRecord[] = Array.from({ length: count }, (_, index) => {
      const words = tiny
        ? ["quay", ...(index % 2 ? [g.word()] : [])]
        : [...Array.from({ length: g.between(3, 220) }, g.word), ...(g.random() < 0.05 ? ["quay", "quay"] : ["quay"])];
      if (g.random() < 0.05) words.push(Array.from({ length: g.between(1, 3) }, () => CJK_WORDS[g.between(0, CJK_WORDS.length - 1)]).join(""));
      const text = words.join(" ");
      const record = {
        type: "chunk" as const,
        id: `${documentId.slice(0, 8)}-${index}`,
        documentId,
        uri,
        index,
        text,
        prefix: "",
        pageStart: 1,
        pageEnd: 1,
        pageLabels: [],
        charStart: offset,
        charEnd: offset + text.length,
        tokenCount: words.length,
        tokenizer: "gpt-tokenizer",
        encoding: "cl100k_base",
        limits: { maxTokens: 256, overlapTokens: 0, minTokens: 1 },
        headings: [],
        flags: g.random() < 0.1 ? ["ocr"] : [],
      };
      offset += text.length + 2;
      return record as unknown as ChunkRecord;
    });
    const pageText = chunks.map((c) => c.text).join("\n\n");
    const page = { type: "page", documentId, uri, number: 1, width: 612, height: 792, rotation: 0, lines: [], paragraphs: [], text: pageText, mode: "reflow", empty: false, orderSource: "geometry", orderReason: "untagged", untaggedGlyphs: 0, columns: 1 };
    return { status: "ok", uri, document: { documentId, uri, size: 1, pageCount: 1, tagged: false, title }, pages: [page as unknown as PageRecord], chunks, warnings: [] } as DocumentResult;
  });
}

let dir: string;
let withBounds: Database.Database;
let withoutBounds: Database.Database;
/** Statements run on `withBounds`, to see the bounds were used. */
const statements: string[] = [];

async function write(results: DocumentResult[], options: Record<string, unknown> = {}) {
  const sink = await sqlite.create(sqlite.options.parse({ path: "archive.sqlite", ...options }), { baseDir: dir, warn: () => {} });
  for (const r of results) await sink.write(r);
  if (options.prune) for (const r of results.slice(0, 2)) await sink.remove!(r.uri);
  await sink.checkpoint();
  await sink.close({ ...emptySummary(), complete: true });
}

/** The archive as written, and a copy of it without the bounds (searched by ranking every match). */
function reopen() {
  withBounds?.close();
  withoutBounds?.close();
  copyFileSync(join(dir, "archive.sqlite"), join(dir, "plain.sqlite"));
  const plain = new Database(join(dir, "plain.sqlite"));
  plain.exec("DROP TABLE term_impacts; DROP TABLE impact_blocks;");
  plain.close();
  withBounds = new Database(join(dir, "archive.sqlite"), { readonly: true, verbose: (sql) => statements.push(String(sql)) });
  withoutBounds = new Database(join(dir, "plain.sqlite"), { readonly: true });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pagestream-pruning-"));
  await write(archiveResults(1, 60));
  reopen();
}, 120_000);
afterAll(() => {
  withBounds?.close();
  withoutBounds?.close();
  rmSync(dir, { recursive: true, force: true });
});

const g = generator(7);
const QUERIES = [
  "quay",
  "quay OR rare5x",
  "quay NOT the",
  ...g.common,
  ...g.middling.slice(0, 12),
  ...g.rare.slice(0, 4),
  "the OR rare5x",
  "harbour OR word3",
  "of OR word40 OR rare9x",
  "the OR berth",
  "the NOT berth",
  "harbour NOT word1",
  "harbour NOT (word1 word2)",
  "(the NOT of) OR rare3x",
  '"the harbour"',
  '"of the" OR rare12x',
  "the harbour",
  "東京",
  "the OR 東京",
  "港湾 OR harbour",
  ...Array.from({ length: 60 }, () => {
    const terms = Array.from({ length: g.between(1, 3) }, g.word);
    return terms.join([" ", " OR ", " NOT "][g.between(0, 2)]);
  }),
];

function same(query: string, options: SearchOptions) {
  const a = searchArchive(withBounds, query, options);
  const b = searchArchive(withoutBounds, query, options);
  expect({ query, options, hits: a.hits, more: a.more }).toEqual({ query, options, hits: b.hits, more: b.more });
}

describe("ranking with bounds", () => {
  it("gives the hits, scores and order of ranking every match", () => {
    statements.length = 0;
    for (const query of QUERIES) same(query, { limit: 10 });
    // The bounds did the ranking: blocks were scored, not every match.
    expect(statements.filter((s) => s.includes("rowid / 128 IN")).length).toBeGreaterThan(30);
  });

  it("gives the same pages far down the list", () => {
    for (const query of [...g.common, "the OR rare5x", "harbour NOT word1", "of OR word40 OR rare9x"]) {
      for (const options of [{ limit: 10, offset: 40 }, { limit: 100 }, { limit: 5, offset: 995 }]) same(query, options);
    }
  }, 60_000);

  it("gives the same hits under filters (a folder, chunk flags, OCR text only)", () => {
    for (const query of QUERIES.slice(0, 30)) {
      for (const options of [{ limit: 10, pathPrefix: "/archive/odd/" }, { limit: 10, flags: [["ocr"]] }, { limit: 10, source: "text" as const }]) same(query, options);
    }
  });

  it("still does after documents are replaced and removed, and the bounds they leave are too high", async () => {
    // Every tenth document again with other chunks, two removed, and new ones after them.
    const again = archiveResults(2, 60).filter((_, d) => d % 10 === 0);
    await write([...archiveResults(1, 60).slice(0, 2), ...again, ...archiveResults(3, 6, "new")], { prune: true });
    reopen();
    for (const query of QUERIES) same(query, { limit: 10 });
  }, 60_000);
});

describe("ranking with bounds, ties", () => {
  it("breaks ties in score by seq as ranking every match does, across blocks", async () => {
    // Chunks made from six templates: scores take six values, and a page's rows tie with rows
    // in other blocks, scored in other passes.
    const templates = ["quay quay", "quay x", "quay quay quay x y", "quay x y z", "quay", "quay quay x y z w"];
    const t = generator(11);
    const results = Array.from({ length: 32 }, (_, d) => {
      const documentId = `tie${d}`.padEnd(64, "0");
      const uri = `/ties/${d}.pdf`;
      // Each document holds one template, and a few late ones some higher-scoring chunks, whose
      // blocks are scored first.
      const chunks = Array.from({ length: 100 }, (_, index) => {
        const pick = d % 8 === 6 && t.random() < 0.05 ? t.between(2, templates.length - 1) : d % 2;
        const text = templates[pick]!.replaceAll(/\b[xyzw]\b/g, () => `f${t.between(0, 9999)}`);
        return { type: "chunk", id: `${d}-${index}`, documentId, uri, index, text, prefix: "", pageStart: 1, pageEnd: 1, pageLabels: [], charStart: 0, charEnd: text.length, tokenCount: 1, tokenizer: "gpt-tokenizer", encoding: "cl100k_base", limits: { maxTokens: 9, overlapTokens: 0, minTokens: 1 }, headings: [], flags: [] };
      });
      const page = { type: "page", documentId, uri, number: 1, width: 1, height: 1, rotation: 0, lines: [], paragraphs: [], text: "", mode: "reflow", empty: true, orderSource: "geometry", orderReason: "untagged", untaggedGlyphs: 0, columns: 1 };
      return { status: "ok", uri, document: { documentId, uri, size: 1, pageCount: 1, tagged: false }, pages: [page], chunks, warnings: [] } as unknown as DocumentResult;
    });
    const tieDir = mkdtempSync(join(tmpdir(), "pagestream-ties-"));
    try {
      const sink = await sqlite.create(sqlite.options.parse({ path: "ties.sqlite" }), { baseDir: tieDir, warn: () => {} });
      for (const r of results) await sink.write(r);
      await sink.close({ ...emptySummary(), complete: true });
      copyFileSync(join(tieDir, "ties.sqlite"), join(tieDir, "plain.sqlite"));
      new Database(join(tieDir, "plain.sqlite")).exec("DROP TABLE term_impacts; DROP TABLE impact_blocks;").close();
      const a = new Database(join(tieDir, "ties.sqlite"), { readonly: true });
      const b = new Database(join(tieDir, "plain.sqlite"), { readonly: true });
      for (let limit = 1; limit <= 40; limit++) {
        for (const query of ["quay", "quay NOT f7"]) expect([query, limit, searchArchive(a, query, { limit }).hits]).toEqual([query, limit, searchArchive(b, query, { limit }).hits]);
      }
      a.close();
      b.close();
    } finally {
      rmSync(tieDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the bounds' pieces", () => {
  it("keeps the pairs no other beats on both counts, merging the lowest past the most kept", () => {
    expect(addPoint([], [3, 100])).toEqual([[3, 100]]);
    expect(addPoint([[3, 100]], [2, 120])).toEqual([[3, 100]]); // fewer occurrences, longer chunk: beaten
    expect(addPoint([[3, 100]], [4, 90])).toEqual([[4, 90]]); // beats the pair there
    expect(addPoint([[3, 100]], [2, 20])).toEqual([[3, 100], [2, 20]]);
    let points = addPoint([], [10, 500]);
    for (const p of [[8, 300], [6, 200], [4, 100], [2, 10]] as [number, number][]) points = addPoint(points, p);
    expect(points).toHaveLength(MAX_POINTS);
    // The merged pair bounds both it replaced: the higher count, the shorter length.
    expect(points.at(-1)).toEqual([4, 10]);
  });

  it("counts the tokens FTS5 indexes, stemmed and folded as the archive's tokenizer does", () => {
    const porter = new FtsTokens(withBounds, "porter unicode61 remove_diacritics 2", [1, 0.5, 1]);
    expect(porter.tokens("Connected Harbours, café")).toEqual(["connect", "harbour", "cafe"]);
    const [row] = porter.count([["berth berth berths quay", "Berth notice", ""]], 2);
    // berth: 3 in the text, 1 in the title weighing a half.
    expect(row).toEqual({ length: 6, weighted: new Map([["berth", 3.5]]) });
    porter.close();
    expect(() => new FtsTokens(withBounds, "unicode61'); DROP TABLE t; --", [1])).toThrow("unknown full-text tokenizer");
  });

  it("counts ASCII text as unicode61 does, and only when FTS5 counted as many tokens", () => {
    const plain = new FtsTokens(withBounds, "unicode61 remove_diacritics 2", [1, 0.5, 1]);
    const rows = [
      ["Berth_7's BERTH berth-7, 7 o'clock: e-mail e mail", "Berth Notice", ""],
      ["\tTABS\nand\rnewlines ~!@#$%^&*()[]{}|\\;:'\",<.>/? tabs", "", ""],
      [`${"x".repeat(40_000)} ${"x".repeat(32_768)}y`, "long", ""],
    ];
    for (const row of rows) {
      const [scratch] = plain.count([row], 1);
      // The counts FTS5 records a column: what the in-memory table's docsize holds, as the archive's does.
      const perColumn = row.map((text) => plain.count([[text, "", ""]], 1)[0]!.length);
      expect(asciiRowTokens(row, [1, 0.5, 1], 1, perColumn)).toEqual(scratch);
    }
    expect(asciiRowTokens(["café", "", ""], [1, 0.5, 1], 1, [1, 0, 0])).toBeUndefined(); // not ASCII: counted by FTS5
    expect(asciiRowTokens(["a b", "", ""], [1, 0.5, 1], 1, [3, 0, 0])).toBeUndefined(); // FTS5 counted otherwise
    // Every chunk of the generated archive, with the counts its index recorded, as the writer reads them.
    const chunks = withBounds.prepare("SELECT c.text, c.title, c.cjk, d.sz FROM chunks c JOIN chunks_fts_docsize d ON d.id = c.seq").raw().all() as [string, string, string, Buffer][];
    let ascii = 0;
    for (const [text, title, cjk, size] of chunks) {
      const fast = asciiRowTokens([text, title, cjk], [1, 0.5, 1], 2, readVarints(size, 3));
      if (!fast) continue;
      ascii++;
      expect(fast).toEqual(plain.count([[text, title, cjk]], 2)[0]);
    }
    expect(ascii).toBeGreaterThan(chunks.length * 0.9);
    plain.close();
  });

  it("bounds only queries whose matches can hold a single phrase: OR, NOT, not AND", () => {
    const phrases = (q: string) => alternativePhrases(parseQuery(q))?.map((p) => p.match);
    expect(phrases("harbour")).toEqual(['"harbour"']);
    expect(phrases("harbour OR quay")).toEqual(['"harbour"', '"quay"']);
    // An excluded word adds nothing to a row that matches; an excluded pair of words may.
    expect(phrases("harbour NOT quay")).toEqual(['"harbour"']);
    expect(phrases("harbour NOT (quay dues)")).toEqual(['"harbour"', '"quay"', '"dues"']);
    expect(phrases("harbour quay")).toBeUndefined();
    expect(phrases("東京都")).toEqual(['cjk : "東京 京都"']);
    expect(phrases('"berth 東京"')).toBeUndefined(); // a text phrase and a CJK phrase, both required
    expect(prefixLengths(parseQuery("harb* OR dredg* OR 東京都*"))).toEqual([4, 5, 2]);
  });
});
