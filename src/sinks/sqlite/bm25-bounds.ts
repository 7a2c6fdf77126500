/**
 * FTS5's bm25 (fts5_aux.c, fts5Bm25Function), taken apart so a bound can be computed before a
 * row is scored. For a row of D tokens, a phrase found in `hits` of the index's N rows, with f
 * weighted occurrences in the row, adds
 *
 *   idf · f·(k1 + 1) / (f + k1·(1 − b + b·D / avgdl)),   idf = ln((N − hits + 0.5) / (hits + 0.5))
 *
 * to the row's score (FTS5 returns it negated); k1 = 1.2 and b = 0.75 are fixed in FTS5, and an
 * idf of 0 or less becomes 1e-6. N and the total length come from FTS5's own averages record, as
 * bm25 reads them.
 */
import type { Database } from "better-sqlite3";
import { readVarints } from "./sqlite-varints.js";

const K1 = 1.2;
const B = 0.75;

export interface IndexTotals {
  rows: number;
  averageLength: number;
}

/**
 * The row count and average row length (tokens, every column) of an FTS5 table: its averages
 * record, rowid 1 of `<table>_data` (a varint of rows, then one of tokens a column). Undefined
 * for an empty index.
 */
export function indexTotals(db: Database, table: string, columns: number): IndexTotals | undefined {
  const record = db.prepare(`SELECT block FROM "${table}_data" WHERE id = 1`).pluck().get();
  if (!(record instanceof Uint8Array)) return undefined;
  const [rows, ...sizes] = readVarints(record, 1 + columns);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (!rows || !total) return undefined;
  return { rows, averageLength: total / rows };
}

/** bm25's idf of a phrase found in `hits` of `rows` rows. */
export function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value <= 0 ? 1e-6 : value;
}

/** What one phrase adds to a row's bm25 per unit of idf: `weighted` occurrences in a row of `length` tokens. */
export function phraseFactor(weighted: number, length: number, averageLength: number): number {
  return (weighted * (K1 + 1)) / (weighted + K1 * (1 - B + (B * length) / averageLength));
}
