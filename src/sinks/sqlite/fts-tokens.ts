/**
 * Text tokenized exactly as the archive's full-text index tokenizes it. The text is indexed in
 * a small FTS5 table with the same tokenizer, in memory, and its tokens are read back through
 * fts5vocab. The ranking bounds (term-impacts.ts) must count the very tokens the archive's index
 * holds: a tokenizer rewritten in JavaScript would differ on some letter (case folding,
 * diacritics, the Porter stemmer), and a bound that undercounts one gives wrong hits.
 *
 * One case is short enough to write out (asciiRowTokens): ASCII text without stemming, where
 * unicode61 keeps [0-9A-Za-z] and folds A-Z to lower case (fts5_unicode2.c's aAsciiTokenChar),
 * and the punctuation beyond ASCII it splits at.
 * Reading fts5vocab costs ~70 µs a chunk, this a few; its counts are taken only when each
 * column's number of tokens is the one FTS5 itself recorded for the row.
 */
import type { Database, Statement } from "better-sqlite3";
import { readVarints } from "./sqlite-varints.js";

/** The tokenizers pagestream declares (archive-schema.ts's ftsTokenizer): no other string reaches SQL here. */
export const FTS_TOKENIZERS = ["unicode61 remove_diacritics 2", "porter unicode61 remove_diacritics 2"] as const;

export interface RowTokens {
  /** Tokens in the row, every column: the length FTS5's bm25 divides by the average. */
  length: number;
  /** The row's tokens whose occurrences, weighted by column as bm25 weighs them, reach the minimum asked for. */
  weighted: Map<string, number>;
}

/** Longest term FTS5 indexes, in bytes (FTS5_MAX_TOKEN_SIZE): a longer token is cut there. */
const MAX_TOKEN_BYTES = 32_768;
/**
 * Characters beyond ASCII that unicode61 only ever splits at, common in English text: typographic
 * quotes and dashes, bullets, spaces, the Latin-1 signs (not ª º µ ² ³ ¹ ¼ ½ ¾, which it keeps),
 * currency signs, arrows, mathematical operators and geometric shapes. SQLite's Unicode tables
 * are older than JavaScript's: the characters assigned since (₺ U+20BA on, U+2065–U+2069) it
 * keeps in tokens, so they are left out. A test checks every one against FTS5 itself. Text with
 * any other character beyond ASCII is counted by FTS5 (three chunks in four of the real corpus
 * hold one, and half of those only these).
 */
export const SEPARATORS_BEYOND_ASCII = "\u00a0-\u00a9\u00ab-\u00b1\u00b4\u00b6-\u00b8\u00bb\u00bf\u00d7\u00f7\u2000-\u2064\u206a-\u206f\u20a0-\u20b9\u2190-\u22ff\u25a0-\u25ff";
const COUNTABLE = new RegExp(`^[\\x00-\\x7f${SEPARATORS_BEYOND_ASCII}]*$`);
/** What unicode61 makes of each ASCII character: 0 a separator, 1 a token character, 2 one it folds to lower case. */
const ASCII_CLASS = new Uint8Array(128);
ASCII_CLASS.fill(1, 0x30, 0x3a); // 0-9
ASCII_CLASS.fill(1, 0x61, 0x7b); // a-z
ASCII_CLASS.fill(2, 0x41, 0x5b); // A-Z

/**
 * The tokens of a row of ASCII text (one text a column) as `unicode61 remove_diacritics 2`
 * makes them, with those weighing at least `minWeighted`; undefined when a text holds a character
 * beyond ASCII other than SEPARATORS_BEYOND_ASCII, or when the tokens counted in a column are not
 * `indexed[column]`, FTS5's own count for the row.
 */
export function asciiRowTokens(row: readonly string[], weights: readonly number[], minWeighted: number, indexed: readonly number[]): RowTokens | undefined {
  // Other text is told apart before any of it is counted (a row most often is all countable or not).
  for (let column = 0; column < weights.length; column++) if (!COUNTABLE.test(row[column] ?? "")) return undefined;
  const weighted = new Map<string, number>();
  let length = 0;
  for (let column = 0; column < weights.length; column++) {
    const text = row[column] ?? "";
    const weight = weights[column]!;
    let count = 0;
    // One pass over the characters: the text split and lower-cased whole cost twice as much.
    let start = -1;
    let upper = false;
    for (let i = 0; i <= text.length; i++) {
      const code = i < text.length ? text.charCodeAt(i) : 0;
      const kind = code < 0x80 ? ASCII_CLASS[code]! : 0;
      if (kind !== 0) {
        if (start < 0) {
          start = i;
          upper = false;
        }
        if (kind === 2) upper = true;
        continue;
      }
      if (start < 0) continue;
      const token = text.slice(start, Math.min(i, start + MAX_TOKEN_BYTES));
      // toLowerCase folds ASCII text's A-Z only, as unicode61 does.
      const term = upper ? token.toLowerCase() : token;
      weighted.set(term, (weighted.get(term) ?? 0) + weight);
      count++;
      start = -1;
    }
    if (count !== indexed[column]) return undefined;
    length += count;
  }
  for (const [term, weight] of weighted) if (weight < minWeighted) weighted.delete(term);
  return { length, weighted };
}

export class FtsTokens {
  private readonly db: Database;
  private readonly insert: Statement;
  private readonly lengths: Statement;
  private readonly weightedSql: Statement;
  private readonly inOrder: Statement;
  private readonly columns: number;

  /**
   * `weights`: bm25's weight of each column, in order. The table is opened in memory by the
   * driver `like` was opened with (importing better-sqlite3 here would load it for
   * `pagestream validate` and `--help`, which never open a database).
   */
  constructor(like: Database, tokenize: string, weights: readonly number[]) {
    if (!(FTS_TOKENIZERS as readonly string[]).includes(tokenize)) throw new Error(`unknown full-text tokenizer ${JSON.stringify(tokenize)}`);
    this.columns = weights.length;
    const names = weights.map((_, i) => `c${i}`);
    this.db = new (like.constructor as new (file: string) => Database)(":memory:");
    this.db.exec(`CREATE VIRTUAL TABLE t USING fts5(${names.join(", ")}, content = '', tokenize = '${tokenize}');
                  CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    this.insert = this.db.prepare(`INSERT INTO t (rowid, ${names.join(", ")}) VALUES (?, ${names.map(() => "?").join(", ")})`);
    this.lengths = this.db.prepare("SELECT id, sz FROM t_docsize").raw();
    // The vocabulary lists instances term by term, so grouping by (term, doc) needs no sort.
    const weight = `CASE col ${names.map((n, i) => `WHEN '${n}' THEN ${Number(weights[i])}`).join(" ")} ELSE 1 END`;
    this.weightedSql = this.db.prepare(`SELECT term, doc, sum(${weight}) AS f FROM v GROUP BY term, doc HAVING f >= ?`).raw();
    this.inOrder = this.db.prepare("SELECT term FROM v ORDER BY offset").pluck();
  }

  /** The tokens of each row (one text a column), with those weighing at least `minWeighted`. */
  count(rows: readonly (readonly string[])[], minWeighted: number): RowTokens[] {
    if (rows.length === 0) return [];
    return this.indexed(rows, () => {
      const out: RowTokens[] = rows.map(() => ({ length: 0, weighted: new Map() }));
      for (const [id, size] of this.lengths.all() as [number, Buffer][]) out[id - 1]!.length = readVarints(size, this.columns).reduce((a, b) => a + b, 0);
      for (const [term, doc, f] of this.weightedSql.iterate(minWeighted) as IterableIterator<[string, number, number]>) out[doc - 1]!.weighted.set(term, f);
      return out;
    });
  }

  /** The tokens of a phrase, in order, as FTS5 reads it from a MATCH expression. */
  tokens(text: string): string[] {
    return this.indexed([[text]], () => this.inOrder.all() as string[]);
  }

  close(): void {
    this.db.close();
  }

  private indexed<T>(rows: readonly (readonly string[])[], read: () => T): T {
    return this.db.transaction(() => {
      rows.forEach((row, i) => this.insert.run(i + 1, ...Array.from({ length: this.columns }, (_, c) => row[c] ?? "")));
      try {
        return read();
      } finally {
        this.db.exec("INSERT INTO t (t) VALUES ('delete-all')");
      }
    })();
  }
}
