/**
 * Ranking bounds for the full-text index, so that a search scores with bm25 only the chunks
 * that can still reach its page (pruned-ranking.ts), not every chunk holding a common word.
 *
 * Chunks are taken in blocks of {@link BLOCK_SIZE} by seq. For each term and block, `term_impacts`
 * keeps the few (weighted occurrences, chunk length) pairs that no other chunk of the block beats
 * on both — the pairs bm25 can score highest, whatever the archive's average length (Lucene keeps
 * the same "competitive impacts" per block). Occurrences are weighted by column as search weighs
 * them (FTS_WEIGHTS) and counted by the archive's own tokenizer (fts-tokens.ts). Only weights of
 * {@link RECORDED_WEIGHT} or more are recorded: a term without a record in a block occurs there at
 * most 1.5 times weighted, in a chunk no shorter than the block's shortest (`impact_blocks`).
 *
 * Every chunk row written goes through here (ArchiveWriter, and prepareArchive when the index is
 * rebuilt), so every block has its bound. Deleted rows leave theirs: a bound set too high costs
 * time, never a hit.
 */
import type { Database, Statement } from "better-sqlite3";
import { asciiRowTokens, FTS_TOKENIZERS, FtsTokens, type RowTokens } from "./fts-tokens.js";
import { readVarints } from "./sqlite-varints.js";

export const BLOCK_SIZE = 128;
/** Weighted occurrences at and above which a term is recorded (the weights are multiples of 0.5). */
export const RECORDED_WEIGHT = 2;
/** Most pairs kept for a term in a block; past it, two are merged into one that bounds both. */
export const MAX_POINTS = 4;
/** bm25's weight of each full-text column (text, title, cjk): a title word counts half. */
export const FTS_WEIGHTS = [1, 0.5, 1] as const;

export const IMPACT_TABLES = `
CREATE TABLE IF NOT EXISTS impact_blocks (
  block INTEGER PRIMARY KEY,
  min_length INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS term_impacts (
  term TEXT NOT NULL,
  block INTEGER NOT NULL,
  impacts TEXT NOT NULL,
  PRIMARY KEY (term, block)
) STRICT, WITHOUT ROWID;
`;

/** Weighted occurrences of a term in a chunk, and the chunk's length in tokens. */
export type ImpactPoint = [weighted: number, length: number];

export interface ImpactChunk {
  seq: number;
  text: string;
  title: string;
  cjk: string;
}

export function blockOf(seq: number): number {
  return Math.floor(seq / BLOCK_SIZE);
}

/**
 * `points` with `point` added: points it beats on both counts (as many occurrences or more, in a
 * chunk as short or shorter) go, and it is left out when one beats it. Sorted by weight,
 * highest first; past MAX_POINTS the two lowest merge into the pair that bounds both.
 */
export function addPoint(points: readonly ImpactPoint[], point: ImpactPoint): ImpactPoint[] {
  const kept = [...points];
  insertPoint(kept, point[0], point[1]);
  return kept;
}

/**
 * addPoint in place, for the writer: a chunk's every recorded term goes through it (~50 a chunk),
 * and copying the pairs each time cost as much as counting the tokens.
 */
function insertPoint(points: ImpactPoint[], weighted: number, length: number): void {
  for (const [w, l] of points) if (w >= weighted && l <= length) return;
  let kept = 0;
  for (const point of points) if (!(point[0] <= weighted && point[1] >= length)) points[kept++] = point;
  points.length = kept;
  points.push([weighted, length]);
  points.sort(highestFirst);
  while (points.length > MAX_POINTS) {
    const low = points.pop()!;
    const next = points.pop()!;
    points.push([Math.max(low[0], next[0]), Math.min(low[1], next[1])]);
  }
}

function highestFirst(a: ImpactPoint, b: ImpactPoint): number {
  return b[0] - a[0] || a[1] - b[1];
}

export class ImpactWriter {
  private readonly tokens: FtsTokens;
  /** FTS5's record of a row's tokens a column, when ASCII text can be counted without it (no stemming). */
  private readonly docsize: Statement<[number], Buffer | undefined> | undefined;
  private readonly blockMin: Statement;
  private readonly readPoints: Statement<[string, number], string | undefined>;
  private readonly writePoints: Statement;

  constructor(db: Database, tokenize: string) {
    this.tokens = new FtsTokens(db, tokenize, FTS_WEIGHTS);
    this.docsize = tokenize === FTS_TOKENIZERS[0] ? db.prepare<[number], Buffer | undefined>("SELECT sz FROM chunks_fts_docsize WHERE id = ?").pluck() : undefined;
    this.blockMin = db.prepare(
      "INSERT INTO impact_blocks (block, min_length) VALUES (?, ?) ON CONFLICT (block) DO UPDATE SET min_length = min(min_length, excluded.min_length)",
    );
    this.readPoints = db.prepare<[string, number], string | undefined>("SELECT impacts FROM term_impacts WHERE term = ? AND block = ?").pluck();
    this.writePoints = db.prepare("INSERT INTO term_impacts (term, block, impacts) VALUES (?, ?, ?) ON CONFLICT (term, block) DO UPDATE SET impacts = excluded.impacts");
  }

  /** Records the bounds of chunk rows just written to the archive and its index (inside the caller's transaction). */
  add(chunks: readonly ImpactChunk[]): void {
    const rows = chunks.map((c) => [c.text, c.title, c.cjk]);
    const counts: (RowTokens | undefined)[] = rows.map((row, i) => {
      const size = this.docsize?.get(chunks[i]!.seq);
      return size && asciiRowTokens(row, FTS_WEIGHTS, RECORDED_WEIGHT, readVarints(size, FTS_WEIGHTS.length));
    });
    const rest = counts.flatMap((c, i) => (c ? [] : [i]));
    this.tokens.count(rest.map((i) => rows[i]!), RECORDED_WEIGHT).forEach((c, k) => (counts[rest[k]!] = c));
    const shortest = new Map<number, number>();
    // The chunks' pairs by block and term, then merged into what each block holds already.
    const blocks = new Map<number, Map<string, ImpactPoint[]>>();
    chunks.forEach((chunk, i) => {
      const { length, weighted } = counts[i]!;
      const block = blockOf(chunk.seq);
      shortest.set(block, Math.min(shortest.get(block) ?? Infinity, length));
      let terms = blocks.get(block);
      if (!terms) blocks.set(block, (terms = new Map()));
      for (const [term, weight] of weighted) {
        let points = terms.get(term);
        if (!points) terms.set(term, (points = []));
        insertPoint(points, weight, length);
      }
    });
    for (const [block, length] of shortest) this.blockMin.run(block, length);
    for (const [block, terms] of blocks) {
      for (const [term, added] of terms) {
        const stored = this.readPoints.get(term, block);
        const merged = stored === undefined ? added : (JSON.parse(stored) as ImpactPoint[]);
        if (stored !== undefined) for (const [weighted, length] of added) insertPoint(merged, weighted, length);
        this.writePoints.run(term, block, JSON.stringify(merged));
      }
    }
  }

  close(): void {
    this.tokens.close();
  }
}

/** Chunks read at a time when every bound is computed again. */
const REBUILD_BATCH = 2_000;

/** Drops every bound and records them again from the chunks the archive holds (a new tokenizer, an upgraded archive). */
export function rebuildImpacts(db: Database, tokenize: string): void {
  db.exec("DELETE FROM term_impacts; DELETE FROM impact_blocks;");
  const writer = new ImpactWriter(db, tokenize);
  const page = db.prepare<[number], ImpactChunk>(`SELECT seq, text, title, cjk FROM chunks WHERE seq > ? ORDER BY seq LIMIT ${REBUILD_BATCH}`);
  try {
    for (let after = -Infinity; ; ) {
      const chunks = page.all(after);
      if (chunks.length === 0) break;
      writer.add(chunks);
      after = chunks[chunks.length - 1]!.seq;
    }
  } finally {
    writer.close();
  }
}
