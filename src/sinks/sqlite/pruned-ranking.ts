/**
 * The best `limit` matches of a query by bm25, scoring only the blocks of chunks that can hold
 * one. Ranking every match of a word that most chunks hold costs ~1 µs a match (bm25 looks up
 * each row's length), 30–90 ms for the commonest words of a 100,000-chunk archive on a busy
 * machine; the answer here is the same rows in the same order (score, then seq) as that ranking.
 *
 * A block's bound is the most its chunks can score for the query's commonest phrase, a word: its
 * idf times the best factor its recorded pairs allow in the block (term-impacts.ts; where it has
 * no record, 1.5 occurrences in the block's shortest chunk). The query's other phrases add to a
 * row's score only where they occur: their rows are all scored, and every other row scores no
 * more than its block's bound. Blocks are scored best bound first until `limit` rows are found;
 * then every other block whose bound reaches the `limit`-th score found is scored too, and the
 * rows merged. A block below that score cannot place a row on the list (a tie goes to the lower
 * seq, so a bound equal to it is scored). Every pass reads the same snapshot (search runs in a
 * read transaction), so their scores agree.
 *
 * So the bounds are tight for a query with one common word and rarer phrases beside it as
 * alternatives (a word; a word OR a rarer word; a word NOT another). Two common words' bests,
 * reached by different chunks, would add up to a bound above the page in nearly every block
 * (`harbour OR notice`): such a query ranks every match, and so does one whose phrases all
 * occur together (`harbour notice`; search.ts passes no phrases for it: its matches are no more
 * than its rarest word's, or its words are all common).
 */
import type { Database } from "better-sqlite3";
import { indexTotals, idf, phraseFactor } from "./bm25-bounds.js";
import { FtsTokens } from "./fts-tokens.js";
import { BLOCK_SIZE, FTS_WEIGHTS, RECORDED_WEIGHT, type ImpactPoint } from "./term-impacts.js";

export interface Ranked {
  seq: number;
  score: number;
}

export interface QueryPhrase {
  /** The phrase as a MATCH expression of its own (with its column filter). */
  match: string;
  /** Its text, as FTS5 tokenizes it. */
  text: string;
}

/**
 * Rows of the commonest phrase below which every match is ranked: a few thousand bm25 scores
 * take a few milliseconds, about what reading the bounds costs.
 */
export const PRUNE_FROM_HITS = 3_000;
/**
 * The other phrases' rows are all scored, one by one: the commonest is pruned only when they
 * hold no more than this share of its rows (else pruning saves less than it costs).
 */
const OTHERS_SHARE = 0.25;
/** Bounds are raised this much, so that rounding in JavaScript's arithmetic against SQLite's never drops a block. */
const BOUND_MARGIN = 1e-9;

/**
 * The ranked rows of a query whose matches can hold as few as one of `phrases` (the phrases its
 * score sums over) over the archive's full-text index. `rankIn(blocks, rows)` ranks the matches
 * in those blocks and those rows (every match when called without), `count(match)` counts the
 * rows a MATCH expression finds, `rowsOf(match)` lists them.
 */
export function rankByBlocks(
  db: Database,
  query: { phrases: readonly QueryPhrase[]; tokenize: string; table: string; limit: number },
  sql: { rankIn: (blocks?: number[], rows?: number[]) => Ranked[]; count: (match: string) => number; rowsOf: (match: string) => number[] },
): Ranked[] {
  const totals = indexTotals(db, query.table, FTS_WEIGHTS.length);
  if (!totals || query.phrases.length === 0) return sql.rankIn();
  const tokens = tokenizer(db, query.tokenize);
  const words = query.phrases.map((p) => tokens.tokens(p.text));
  // Counting a phrase of several words costs about as much as ranking it, and such a phrase is
  // rarely the commonest: the single words are counted first, and decide.
  const hits: number[] = [];
  words.forEach((w, p) => w.length === 1 && (hits[p] = sql.count(query.phrases[p]!.match)));
  const common = hits.reduce((best, n, p) => (best < 0 || n > hits[best]! ? p : best), -1);
  if (common < 0 || hits[common]! < PRUNE_FROM_HITS) return sql.rankIn();
  words.forEach((w, p) => w.length !== 1 && (hits[p] = sql.count(query.phrases[p]!.match)));
  const others = hits.reduce((sum, n, p) => (p === common ? sum : sum + n), 0);
  if (others > hits[common]! * OTHERS_SHARE) return sql.rankIn();
  const otherRows = [...new Set(query.phrases.flatMap((phrase, p) => (p === common ? [] : sql.rowsOf(phrase.match))))];

  const blocks = db.prepare("SELECT block, min_length FROM impact_blocks").raw().all() as [number, number][];
  const index = new Map(blocks.map(([block], i) => [block, i]));
  const pointsOf = db.prepare("SELECT block, impacts FROM term_impacts WHERE term = ?").raw();
  // The commonest phrase is a word (those are counted first): its best factor in each block.
  const factor = blocks.map(([, shortest]) => phraseFactor(RECORDED_WEIGHT - 0.5, shortest, totals.averageLength));
  for (const [block, impacts] of pointsOf.iterate(words[common]![0]!) as IterableIterator<[number, string]>) {
    const i = index.get(block);
    if (i === undefined) continue;
    for (const [weighted, length] of JSON.parse(impacts) as ImpactPoint[]) factor[i] = Math.max(factor[i]!, phraseFactor(weighted, length, totals.averageLength));
  }
  const weight = idf(totals.rows, hits[common]!);
  const bound = factor.map((f) => weight * f);

  const order = blocks.map((_, i) => i).sort((a, b) => bound[b]! - bound[a]!);
  const scored = new Map<number, Ranked>();
  const add = (rows: Ranked[]) => rows.forEach((r) => scored.set(r.seq, r));
  const ranked = () => [...scored.values()].sort((a, b) => a.score - b.score || a.seq - b.seq);
  let done = 0;
  // Best bounds first, until `limit` rows are found; a round that finds too few sizes the next by its yield.
  let take = Math.min(query.limit, order.length);
  let rows = otherRows;
  while (done < order.length) {
    while (done + take < order.length && bound[order[done + take]!] === bound[order[done + take - 1]!]) take++;
    const round = order.slice(done, done + take);
    const before = scored.size;
    add(sql.rankIn(round.map((i) => blocks[i]![0]), rows));
    rows = [];
    done += round.length;
    if (scored.size >= query.limit) break;
    const perBlock = (scored.size - before) / round.length;
    take = Math.max(round.length, Math.ceil(((query.limit - scored.size) / Math.max(perBlock, 1 / BLOCK_SIZE)) * 1.5));
  }
  const list = ranked();
  if (list.length < query.limit) return list;
  const nth = -list[query.limit - 1]!.score;
  const rest = order.slice(done).filter((i) => bound[i]! * (1 + BOUND_MARGIN) >= nth);
  if (rest.length === 0) return list.slice(0, query.limit);
  add(sql.rankIn(rest.map((i) => blocks[i]![0]), []));
  return ranked().slice(0, query.limit);
}

const tokenizers = new Map<string, FtsTokens>();

/** One in-memory tokenizer per tokenizer setting, for the life of the process. */
function tokenizer(db: Database, tokenize: string): FtsTokens {
  let found = tokenizers.get(tokenize);
  if (!found) {
    found = new FtsTokens(db, tokenize, FTS_WEIGHTS);
    tokenizers.set(tokenize, found);
  }
  return found;
}
