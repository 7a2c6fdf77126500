/**
 * Searching an archive: the best chunks for a query by bm25, each with its document, its page
 * range, the pages of the matched text itself, and a snippet with the matches marked.
 *
 * Two steps per search, so that snippets and highlights are computed only for the hits ranked
 * best: the first ranks (scoring only the blocks of chunks that can reach the page, when the
 * archive has the bounds: pruned-ranking.ts), the second fetches those hits' marked text.
 * Overlapping chunks both hold the text they share; a hit whose match is the same stretch of
 * the same document as a better-ranked hit is left out. A search reads one snapshot of the
 * archive (a read transaction), and has a time limit (see SEARCH_TIME_LIMIT_MS).
 */
import type { Database, Statement } from "better-sqlite3";
import type { PageBox } from "../../core/records.js";
import { FTS_TABLE, TRIGRAM_TABLE, tableExists } from "./archive-schema.js";
import { cjkPattern } from "./cjk-bigrams.js";
import { FTS_TOKENIZERS } from "./fts-tokens.js";
import { alternativePhrases, matchExpression, parseQuery, positiveTerms, prefixLengths, QueryError, toRawFtsQuery, toTrigramQuery, type IndexColumns, type MatchPhrase } from "./fts-query.js";
import { rankByBlocks, type Ranked } from "./pruned-ranking.js";
import { BLOCK_SIZE, FTS_WEIGHTS } from "./term-impacts.js";

export { QueryError, type QueryErrorCode } from "./fts-query.js";

export interface SearchOptions {
  /** Most hits to return. */
  limit: number;
  /** Only this document: its sha256, a prefix of it (8 hex digits or more), or its uri. */
  document?: string;
  /** Only documents whose uri starts with this. */
  pathPrefix?: string;
  /** Find the query as a literal substring, in the trigram index. */
  substring?: boolean;
  /** Hand the query to FTS5 as it is, in its own syntax (NEAR, column filters, ^). */
  fts?: boolean;
  /** Only matches in text read by OCR from page images (`ocr`), or only matches in the PDFs' own text (`text`). */
  source?: "ocr" | "text";
  /**
   * Only chunks with these flags (see `pageFlags`: scan, ocr, ocr_layer…): each entry is a set of
   * names of which the chunk must carry one, and every entry must hold.
   */
  flags?: readonly (readonly string[])[];
  /** Only documents written into the archive at or after this ISO 8601 time (`ingested_at`). */
  ingestedSince?: string;
  /** Only documents written into the archive before this ISO 8601 time. */
  ingestedBefore?: string;
  /** Hits to skip, for paging (at most {@link MAX_OFFSET}). */
  offset?: number;
  /** Longest the search may take (default {@link SEARCH_TIME_LIMIT_MS}); past it, a QueryError `too_slow`. */
  timeLimitMs?: number;
}

export interface SearchHit {
  /** bm25 relevance: higher is better (SQLite's bm25(), negated). */
  score: number;
  documentId: string | null;
  uri: string;
  /** Where the file is under the source's root, when the archive knows (schema 5). */
  path: string | null;
  title: string | null;
  chunkId: string;
  chunkIndex: number;
  /** The chunk's pages. */
  pageStart: number;
  pageEnd: number;
  /** The pages of the matched text, first and last. */
  matchPages: [number, number];
  /** Printed labels of those pages, where the document shows them. */
  matchPageLabels: string[];
  /**
   * Where the chunk's text stands on those pages: column pieces, in points from the displayed
   * page's top-left corner (none for chunks written before schema 8).
   */
  boxes: PageBox[];
  /** A stretch of the chunk around the matches, white space collapsed; "…" where it was cut. */
  snippet: string;
  /** [start, end) of each match in `snippet`. */
  highlights: [number, number][];
  /** Present when the matched text was read by OCR from a page image: the pages so read and their mean confidence (0–100). */
  ocr?: { pages: number[]; meanConfidence: number };
}

export interface SearchResult {
  query: string;
  /** The expression handed to FTS5 MATCH. */
  match: string;
  hits: SearchHit[];
  /** True when there are hits after these (the next page has some). */
  more: boolean;
}

/**
 * Deepest a search pages: every hit before the page shown is ranked and its highlights compared
 * (to leave out repeats from overlapping chunks), so the cost grows with the offset.
 */
export const MAX_OFFSET = 1_000;

/**
 * bm25 weights of the indexed columns: a word in the chunk's own text counts twice one in its
 * document's title; a CJK word found in the bigram column counts as one in the text.
 */
const WEIGHTS: Record<string, string> = { [FTS_TABLE]: FTS_WEIGHTS.map((w) => w.toFixed(1)).join(", "), [TRIGRAM_TABLE]: "1.0" };
const SNIPPET_TOKENS = 24;
/** Candidates ranked per hit asked for when matches are filtered by where their text came from. */
const SOURCE_CANDIDATES = 10;
const START = "\u0001";
const END = "\u0002";

export function searchArchive(db: Database, query: string, options: SearchOptions): SearchResult {
  // One snapshot for every statement: a run committing meanwhile cannot make the ranking's
  // passes, or a hit and its pages, disagree.
  return db.transaction(() => search(db, query, options))();
}

function search(db: Database, query: string, options: SearchOptions): SearchResult {
  const table = searchTable(db, options);
  const features = archiveFeatures(db);
  const { match, pickPass, cjk, phrases } = matchOf(query, options, features);
  const offset = Math.min(Math.max(0, Math.floor(options.offset ?? 0)), MAX_OFFSET);
  const wanted = offset + options.limit;
  const deadline = startDeadline(db, options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS, options.fts === true);
  const { sql: filterSql, params: filterParams } = chunkFilters(options);
  const limit = (wanted + 1) * (options.source !== undefined ? SOURCE_CANDIDATES : 3);
  const rankIn = (blocks?: number[], rows?: number[]) =>
    sqlite(deadline, () =>
      statement(db, rankingSql(table, features, filterSql, blocks !== undefined)).all({
        ...filterParams,
        match,
        limit,
        ...(blocks ? { blocks: JSON.stringify(blocks), rows: JSON.stringify(rows ?? []) } : {}),
      }) as Ranked[],
    );
  const count = (expression: string) => sqlite(deadline, () => (statement(db, `SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(expression) as { n: number }).n);
  const rowsOf = (expression: string) => sqlite(deadline, () => statement(db, `SELECT ${table}.rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(expression) as number[]);
  sqlite(deadline, () => deadline.check());
  const ranked =
    table === FTS_TABLE && phrases && features.impacts !== undefined
      ? rankByBlocks(db, { phrases, tokenize: features.impacts, table, limit }, { rankIn, count, rowsOf })
      : rankIn();
  const marked = markedTexts(db, table, match, pickPass, ranked.map((r) => r.seq), deadline);
  const textOf = cjk.length ? (seq: number) => withCjkMarks(marked(seq), cjk) : marked;
  const chunkRow = statement(
    db,
    `SELECT c.id, c.chunk_index, c.page_start, c.page_end, c.char_start, c.prefix_chars, d.id AS document_row, d.document_id, d.uri, ${features.path ? "d.path" : "NULL AS path"}, ${features.boxes ? "c.boxes" : "'[]' AS boxes"}, d.title FROM chunks c JOIN documents d ON d.id = c.document_row WHERE c.seq = ?`,
  );
  const pagesOf = new Map<number, PageOffsets[]>();

  // Every hit up to the page shown is found (repeats are told apart by their highlights), and
  // one more tells whether a next page exists.
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const { seq, score } of ranked) {
    if (hits.length > wanted) break;
    sqlite(deadline, () => deadline.check());
    const text = textOf(seq);
    const chunk = chunkRow.get(seq) as HitChunk;
    if (!pagesOf.has(chunk.document_row)) pagesOf.set(chunk.document_row, pageOffsets(db, chunk.document_row));
    const pages = pagesOf.get(chunk.document_row)!;
    const spans = markedSpans(text.marked);
    const first = spans[0];
    const last = spans[spans.length - 1];
    const docStart = first ? documentOffset(chunk, first[0]) : chunk.char_start;
    const docEnd = last ? documentOffset(chunk, last[1] - 1) : chunk.char_start;
    const key = `${chunk.document_row}:${docStart}:${docEnd}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const matchPages: [number, number] = first ? [pageOf(pages, docStart, chunk.page_start), pageOf(pages, docEnd, chunk.page_end)] : [chunk.page_start, chunk.page_end];
    const { snippet, highlights } = cleanSnippet(text.snippet);
    const ocr = ocrOf(db, chunk.document_row, matchPages);
    if ((options.source === "ocr" && !ocr) || (options.source === "text" && ocr)) continue;
    hits.push({
      score: -score,
      documentId: chunk.document_id,
      uri: chunk.uri,
      path: chunk.path,
      title: chunk.title,
      chunkId: chunk.id,
      chunkIndex: chunk.chunk_index,
      pageStart: chunk.page_start,
      pageEnd: chunk.page_end,
      matchPages,
      matchPageLabels: pages.filter((p) => p.number >= matchPages[0] && p.number <= matchPages[1] && p.label).map((p) => p.label!),
      boxes: (JSON.parse(chunk.boxes) as PageBox[]).filter((b) => b.page >= matchPages[0] && b.page <= matchPages[1]),
      snippet,
      highlights,
      ...(ocr ? { ocr } : {}),
    });
  }
  return { query, match, hits: hits.slice(offset, wanted), more: hits.length > wanted };
}

/**
 * A document's pages with their offsets, from the pages_offsets index (schema 6): in a page row
 * they follow the page's text, so reading them there reads the whole text.
 */
export function pageOffsets(db: Database, documentRow: number): PageOffsets[] {
  return statement(db, "SELECT number, label, char_start, char_end FROM pages WHERE document_row = ? AND char_start IS NOT NULL ORDER BY number").all(documentRow) as PageOffsets[];
}

/** The pages read by OCR among the matched pages, and their confidence (weighted by words); undefined when none was. */
function ocrOf(db: Database, documentRow: number, [first, last]: [number, number]): SearchHit["ocr"] {
  const rows = statement(db, "SELECT number, ocr FROM pages WHERE document_row = ? AND number BETWEEN ? AND ? AND ocr IS NOT NULL AND char_start IS NOT NULL ORDER BY number").all(documentRow, first, last) as { number: number; ocr: string }[];
  const read = rows.map((r) => ({ number: r.number, facts: JSON.parse(r.ocr) as { words?: number; meanConfidence?: number } }));
  if (read.length === 0) return undefined;
  const words = read.reduce((n, r) => n + (r.facts.words ?? 0), 0);
  const confidence = words ? read.reduce((s, r) => s + (r.facts.meanConfidence ?? 0) * (r.facts.words ?? 0), 0) / words : 0;
  return { pages: read.map((r) => r.number), meanConfidence: Math.round(confidence * 10) / 10 };
}

/**
 * The ranking statement: the best `@limit` matches by bm25, ties by seq; with `blocks`, only
 * those in the blocks listed in `@blocks` or among the rows listed in `@rows` (JSON arrays).
 * bm25() and SQLite's own sorter rather than FTS5's `ORDER BY rank`: that one scores every match
 * before it returns a row, so nothing could stop it; here the deadline is asked as matches go
 * by. Same scores, same order.
 */
function rankingSql(table: string, features: ArchiveFeatures, filterSql: readonly string[], blocks: boolean): string {
  // CROSS JOIN keeps the index the outer loop; chunks_filter holds what the filters read of a
  // chunk, so its text (most of a chunk row) is never read for a match filtered out.
  const joins = filterSql.length
    ? ` CROSS JOIN chunks c${features.filterIndex ? " INDEXED BY chunks_filter" : ""} ON c.seq = ${table}.rowid CROSS JOIN documents d ON d.id = c.document_row`
    : "";
  // Expressions of the rowid, which FTS5 is not handed (it would look the query up again for
  // each row): SQLite tests them as the index returns rows, against lists read once into
  // temporary indexes.
  const inBlocks = blocks
    ? ` AND (${table}.rowid / ${BLOCK_SIZE} IN (SELECT value FROM json_each(@blocks)) OR ${table}.rowid + 0 IN (SELECT value FROM json_each(@rows)))`
    : "";
  return (
    `SELECT ${table}.rowid AS seq, bm25(${table}, ${WEIGHTS[table]}) AS score FROM ${table}${joins}` +
    ` WHERE ${table} MATCH @match${inBlocks} AND ${DEADLINE_CHECK}` +
    filterSql.map((f) => ` AND ${f}`).join("") +
    ` ORDER BY score, seq LIMIT @limit`
  );
}

/**
 * highlight() and snippet() of a ranked chunk, asked for in rank order until the page is full.
 * FTS5 answers `rowid = ?` by looking the query up again, which for a prefix without a prefix
 * index merges the index entries of every word it starts, each time (`th*`: ~50 ms a lookup,
 * 1.7 s for a page of hits); such a query (`pickPass`) gets one more pass over its matches
 * instead, picking the ranked ones.
 */
function markedTexts(db: Database, table: string, match: string, pickPass: boolean, seqs: number[], deadline: Deadline): (seq: number) => { marked: string; snippet: string } {
  const columns = `${table}.rowid AS seq, highlight(${table}, 0, char(1), char(2)) AS marked, snippet(${table}, 0, char(1), char(2), '…', ${SNIPPET_TOKENS}) AS snippet`;
  type Row = { seq: number; marked: string; snippet: string };
  if (pickPass) {
    // The ranked rows are a list SQLite tests each match against (rowid + 0: FTS5 is not handed it).
    const rows = sqlite(deadline, () =>
      statement(db, `SELECT ${columns} FROM ${table} WHERE ${table} MATCH @match AND ${table}.rowid + 0 IN (SELECT value FROM json_each(@seqs)) AND ${DEADLINE_CHECK}`).all({ match, seqs: JSON.stringify(seqs) }) as Row[],
    );
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return (seq) => bySeq.get(seq)!;
  }
  // CAST: better-sqlite3 binds a JS number as REAL, and FTS5 then takes over the rowid test
  // without applying it (3.53: `rowid = 3.0` returns every match), so each hit got the first
  // match's snippet.
  const one = statement(db, `SELECT ${columns} FROM ${table} WHERE ${table} MATCH @match AND rowid = CAST(@seq AS INTEGER)`);
  return (seq) => sqlite(deadline, () => one.get({ match, seq }) as Row);
}

/**
 * The MATCH expression; whether highlights need the pick pass (a prefix the archive has no
 * prefix index for); where the query's CJK terms are in a text (highlight() marks only the text
 * column: the bigram column's matches are found again in JS); and the phrases bm25 scores, for
 * the pruned ranking when the query is one it can bound (alternativePhrases; not for a query in
 * FTS5's own syntax, a substring, or a prefix).
 */
function matchOf(
  query: string,
  options: { substring?: boolean; fts?: boolean },
  features: ArchiveFeatures,
): { match: string; pickPass: boolean; cjk: RegExp[]; phrases?: MatchPhrase[] } {
  if (options.substring) return { match: toTrigramQuery(query), pickPass: false, cjk: [] };
  if (options.fts) return { match: toRawFtsQuery(query), pickPass: query.includes("*"), cjk: [] };
  const node = parseQuery(query);
  const cjk = features.cjk ? positiveTerms(node).flatMap((t) => cjkPattern(t.text) ?? []) : [];
  const phrases = alternativePhrases(node, features);
  return {
    match: matchExpression(node, features),
    pickPass: prefixLengths(node).some((n) => !features.prefixLengths.includes(n)),
    cjk,
    ...(phrases && !phrases.some((p) => p.prefix) ? { phrases } : {}),
  };
}

/** What an archive's tables have; older archives are searched as they are. */
interface ArchiveFeatures extends IndexColumns {
  /** documents.path (schema 5). */
  path: boolean;
  /** chunks.boxes (schema 8). */
  boxes: boolean;
  /** The chunks_filter index (schema 6). */
  filterIndex: boolean;
  /** Prefix lengths the full-text index keeps an index for (schema 6: 3 and 4). */
  prefixLengths: number[];
  /** The tokenizer the ranking bounds were counted with, when the archive has them (schema 6). */
  impacts: string | undefined;
}

const featuresOf = new WeakMap<Database, { schema: number; features: ArchiveFeatures }>();

/** The archive's features, read again whenever its schema changed (a run may upgrade it while a server reads it). */
function archiveFeatures(db: Database): ArchiveFeatures {
  const schema = db.pragma("schema_version", { simple: true }) as number;
  const known = featuresOf.get(db);
  if (known?.schema === schema) return known.features;
  const has = (table: string, column: string) => db.prepare("SELECT 1 FROM pragma_table_info(?) WHERE name = ?").get(table, column) !== undefined;
  const declaration = (db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(FTS_TABLE) as string | undefined) ?? "";
  const tokenize = tableExists(db, "archive_meta") ? (db.prepare("SELECT value FROM archive_meta WHERE key = 'fts_tokenize'").pluck().get() as string | undefined) : undefined;
  const features: ArchiveFeatures = {
    cjk: has(FTS_TABLE, "cjk"),
    path: has("documents", "path"),
    boxes: has("chunks", "boxes"),
    filterIndex: db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'chunks_filter'").get() !== undefined,
    prefixLengths: (/prefix = '([0-9 ]+)'/.exec(declaration)?.[1] ?? "").split(" ").filter(Boolean).map(Number),
    impacts: tableExists(db, "term_impacts") && tableExists(db, "impact_blocks") && (FTS_TOKENIZERS as readonly (string | undefined)[]).includes(tokenize) ? tokenize : undefined,
  };
  featuresOf.set(db, { schema, features });
  return features;
}

const statements = new WeakMap<Database, Map<string, Statement>>();

/** A statement prepared once per connection (preparing costs about as much as running a small one). */
function statement(db: Database, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let found = cache.get(sql);
  if (!found) cache.set(sql, (found = db.prepare(sql)));
  return found;
}

/**
 * A chunk's marked text and snippet with the CJK terms' matches marked too. A snippet that
 * FTS5 cut around no match (the match was in the bigram column) is cut again around the first
 * one.
 */
function withCjkMarks(texts: { marked: string; snippet: string }, patterns: readonly RegExp[]): { marked: string; snippet: string } {
  const marked = markPatterns(texts.marked, patterns);
  let snippet = markPatterns(texts.snippet, patterns);
  if (!snippet.includes(START)) snippet = snippetAround(marked) ?? snippet;
  return { marked, snippet };
}

/** `text` (with START/END markers) with every match of `patterns` marked as well. */
function markPatterns(text: string, patterns: readonly RegExp[]): string {
  const plain = text.replaceAll(START, "").replaceAll(END, "");
  const spans = markedSpans(text);
  for (const pattern of patterns) for (const m of plain.matchAll(pattern)) spans.push([m.index, m.index + m[0].length]);
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    out += plain.slice(at, from) + START + plain.slice(from, end) + END;
    at = end;
  }
  return out + plain.slice(at);
}

/** Characters of context kept before the first match, and shown in all, when a snippet is cut here. */
const SNIPPET_BEFORE = 40;
const SNIPPET_CHARS = 160;

/** A snippet of a marked text around its first match, "…" where it was cut. */
function snippetAround(marked: string): string | undefined {
  const first = marked.indexOf(START);
  if (first < 0) return undefined;
  const start = Math.max(0, first - SNIPPET_BEFORE);
  let end = Math.min(marked.length, start + SNIPPET_CHARS);
  // A marker pair is never cut apart.
  const open = marked.lastIndexOf(START, end - 1);
  if (open >= 0 && marked.indexOf(END, open) >= end) end = marked.indexOf(END, open) + 1;
  return (start > 0 ? "…" : "") + marked.slice(start, end) + (end < marked.length ? "…" : "");
}

/**
 * How long one search may take, by default: a word most chunks hold is ranked by scoring every
 * chunk that holds it (~2.5 µs each: 0.25 s for 100,000, 2.5 s for a million), and a query
 * that needs longer is stopped with a QueryError (`too_slow`) rather than holding a server or a
 * terminal.
 */
export const SEARCH_TIME_LIMIT_MS = 3_000;

const DEADLINE_FUNCTION = "pagestream_deadline";
/**
 * The deadline as a statement asks it: about one match in 256 (calling into JavaScript and
 * reading the clock at every match cost a tenth of a common word's ranking). At ~1 µs a match
 * the limit is still kept to a fraction of a millisecond.
 */
const DEADLINE_CHECK = `((random() & 255) != 0 OR ${DEADLINE_FUNCTION}())`;

interface Deadline {
  /** performance.now() past which a search stops. */
  at: number;
  limitMs: number;
  /** Throws once the deadline has passed: asked between a search's statements. */
  check(): void;
  /** The query is FTS5's own syntax (`--fts`): its complaints are the user's to fix. */
  raw: boolean;
}

const deadlines = new WeakMap<Database, Deadline>();

/**
 * Arms the time limit of one search on this connection: the SQL function its statements call as
 * matches go by (DEADLINE_CHECK) throws once it has passed (better-sqlite3 has no progress
 * handler or interrupt; a function that throws ends the statement at once).
 */
function startDeadline(db: Database, limitMs: number, raw = false): Deadline {
  let deadline = deadlines.get(db);
  if (!deadline) {
    const state: Deadline = {
      at: Infinity,
      limitMs,
      raw,
      check() {
        if (performance.now() >= state.at) throw new SearchTimeout();
      },
    };
    db.function(DEADLINE_FUNCTION, { deterministic: false }, () => {
      state.check();
      return 1;
    });
    deadlines.set(db, state);
    deadline = state;
  }
  deadline.at = performance.now() + limitMs;
  deadline.limitMs = limitMs;
  deadline.raw = raw;
  return deadline;
}

class SearchTimeout extends Error {}

/** A match in a page's text: [start, end) in the page's `text`. */
export interface PageMatch {
  page: number;
  start: number;
  end: number;
}

/**
 * Where a query matches in one document's pages, found by the same index and tokenizer as
 * search (stemming, diacritics), so a page highlights exactly what ranked it: each chunk's
 * highlight() spans, mapped from the chunk's text to its document and on to its pages. A match
 * in a repeated table header (the chunk's prefix) is not in the document there and is left out;
 * one over a page break is split at it. Sorted, without repeats from overlapping chunks.
 */
export function matchesInDocument(db: Database, query: string, documentRow: number, options: { substring?: boolean; fts?: boolean } = {}): PageMatch[] {
  return db.transaction(() => {
    const table = searchTable(db, options);
    const { match, cjk } = matchOf(query, options, archiveFeatures(db));
    const deadline = startDeadline(db, SEARCH_TIME_LIMIT_MS, options.fts === true);
    // The document's chunks are written together, one seq after another: FTS5 is handed their
    // range, so it reads only matches there rather than every match in the archive (CAST: see
    // markedTexts).
    const range = statement(db, "SELECT min(seq) AS first, max(seq) AS last FROM chunks WHERE document_row = ?").get(documentRow) as { first: number | null; last: number | null };
    if (range.first === null || range.last === null) return [];
    const rows = sqlite(
      deadline,
      () =>
        statement(
          db,
          `SELECT c.char_start, c.prefix_chars, highlight(${table}, 0, char(1), char(2)) AS marked FROM ${table} CROSS JOIN chunks c ON c.seq = ${table}.rowid WHERE ${table} MATCH @match AND ${table}.rowid BETWEEN CAST(@first AS INTEGER) AND CAST(@last AS INTEGER) AND ${DEADLINE_CHECK} AND c.document_row = @document`,
        ).all({ match, document: documentRow, first: range.first, last: range.last }) as (ChunkOffsets & { marked: string })[],
    );
    return pageMatches(db, documentRow, rows, cjk);
  })();
}

/** The matches of a document's chunks (highlight() output), placed on its pages. */
function pageMatches(db: Database, documentRow: number, rows: readonly (ChunkOffsets & { marked: string })[], cjk: readonly RegExp[]): PageMatch[] {
  const pages = pageOffsets(db, documentRow);
  const found = new Map<string, PageMatch>();
  for (const row of rows) {
    for (const [s, e] of markedSpans(cjk.length ? markPatterns(row.marked, cjk) : row.marked)) {
      if (s < row.prefix_chars) continue;
      const start = documentOffset(row, s);
      const end = documentOffset(row, e);
      for (const p of pages) {
        const from = Math.max(start, p.char_start);
        const to = Math.min(end, p.char_end);
        if (from < to) found.set(`${p.number}:${from}`, { page: p.number, start: from - p.char_start, end: to - p.char_start });
      }
    }
  }
  return [...found.values()].sort((a, b) => a.page - b.page || a.start - b.start);
}

/** The index a search reads, after checking the file is an archive that has it. */
function searchTable(db: Database, options: { substring?: boolean }): string {
  if (!tableExists(db, "archive_meta") || !tableExists(db, FTS_TABLE)) throw new QueryError("not_an_archive", "this file is not a pagestream archive (no archive_meta or full-text index)");
  if (options.substring && !tableExists(db, TRIGRAM_TABLE)) {
    throw new QueryError("no_trigram_index", "the archive has no trigram index for substring search: set `trigram: true` on its sqlite sink and run the pipeline again");
  }
  return options.substring ? TRIGRAM_TABLE : FTS_TABLE;
}

/** SQL conditions on the chunk `c` and its document `d` for the filters of a search. */
function chunkFilters(options: SearchOptions): { sql: string[]; params: Record<string, unknown> } {
  const sql: string[] = [];
  const params: Record<string, unknown> = {};
  if (options.document !== undefined) {
    sql.push("(d.document_id = lower(@document) OR d.uri = @document OR (length(@document) >= 8 AND substr(d.document_id, 1, length(@document)) = lower(@document)))");
    params.document = options.document;
  }
  if (options.pathPrefix !== undefined) {
    sql.push("substr(d.uri, 1, length(@prefix)) = @prefix");
    params.prefix = options.pathPrefix;
  }
  (options.flags ?? []).forEach((anyOf, i) => {
    const names = anyOf.map((name, j) => {
      params[`flag${i}_${j}`] = name;
      return `@flag${i}_${j}`;
    });
    if (names.length) sql.push(`EXISTS (SELECT 1 FROM json_each(c.flags) WHERE json_each.value IN (${names.join(", ")}))`);
  });
  // Whether a match is in OCR text is known per page, once the match is placed: only chunks with
  // an OCR page can hold one, and more candidates are ranked for the matches that are left out.
  if (options.source === "ocr") sql.push("EXISTS (SELECT 1 FROM json_each(c.flags) WHERE json_each.value = 'ocr')");
  if (options.ingestedSince !== undefined) {
    sql.push("d.ingested_at >= @since");
    params.since = options.ingestedSince;
  }
  if (options.ingestedBefore !== undefined) {
    sql.push("d.ingested_at < @before");
    params.before = options.ingestedBefore;
  }
  return { sql, params };
}

type HitChunk = ChunkOffsets & { id: string; chunk_index: number; page_start: number; page_end: number; document_row: number; document_id: string | null; uri: string; path: string | null; boxes: string; title: string | null };

interface ChunkOffsets {
  char_start: number;
  prefix_chars: number;
}

export interface PageOffsets {
  number: number;
  label: string | null;
  char_start: number;
  char_end: number;
}

/** [start, end) of each marked match in highlight()'s output, as offsets into the chunk text. */
export function markedSpans(marked: string): [number, number][] {
  const spans: [number, number][] = [];
  let position = 0;
  let start = -1;
  for (const ch of marked) {
    if (ch === START) start = position;
    else if (ch === END) {
      if (start >= 0) spans.push([start, position]);
      start = -1;
    } else position += ch.length;
  }
  return spans;
}

/** A position in a chunk's text → the document text (a repeated table header maps to where the chunk starts). */
function documentOffset(chunk: ChunkOffsets, position: number): number {
  return chunk.char_start + Math.max(0, position - chunk.prefix_chars);
}

function pageOf(pages: readonly PageOffsets[], offset: number, fallback: number): number {
  let found = fallback;
  for (const p of pages) if (p.char_start <= offset) found = p.number;
  return found;
}

/** Markers out, white space collapsed, and where each match sits in what is left. */
export function cleanSnippet(raw: string): { snippet: string; highlights: [number, number][] } {
  let snippet = "";
  const highlights: [number, number][] = [];
  let start = -1;
  for (const ch of raw) {
    if (ch === START) start = snippet.length;
    else if (ch === END) {
      if (start >= 0) highlights.push([start, snippet.length]);
      start = -1;
    } else if (/\s/.test(ch)) {
      if (snippet.length > 0 && !snippet.endsWith(" ")) snippet += " ";
    } else snippet += ch;
  }
  const trimmed = snippet.trimEnd();
  return { snippet: trimmed, highlights: highlights.map(([s, e]) => [s, Math.min(e, trimmed.length)]) };
}

/** Runs a statement, turning an error from FTS5 about the query, or the time limit, into a QueryError. */
function sqlite<T>(deadline: Deadline, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof SearchTimeout) {
      throw new QueryError(
        "too_slow",
        `the search was stopped after ${deadline.limitMs / 1000} s: the query matches too much of the archive to rank in time; make it narrower (more words, a "phrase", a longer prefix)`,
      );
    }
    const message = (err as Error).message;
    if (/fts5|syntax error|unterminated|malformed MATCH|no such column/i.test(message)) {
      if (deadline.raw) {
        throw new QueryError(
          "fts_syntax",
          `FTS5 cannot read this query (${message}): see its syntax at https://www.sqlite.org/fts5.html#full_text_query_syntax (the columns are text, title and cjk), or leave out --fts to search words, "phrases", prefix* and AND/OR/NOT`,
        );
      }
      throw new QueryError("index_error", `the full-text index could not read this query (${message})`);
    }
    throw err;
  }
}
