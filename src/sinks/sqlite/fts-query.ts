/**
 * A person's search query → an FTS5 MATCH expression. The query is never handed to FTS5 as it
 * is: FTS5 reads `NEAR`, `column:`, `^`, `+` and `*` as syntax, and a stray one is an error or a
 * different question ("ratio: 3"). The query is parsed here instead, and each word and each
 * quoted phrase becomes an FTS5 string, which FTS5 only tokenizes:
 *
 *   plain words        harbour dues          → "harbour" "dues"          (all of them, any order)
 *   phrases in quotes  "written notice"      → "written notice"          (those words in a row)
 *   prefix*            dredg*                → "dredg" *                 (words starting so)
 *   OR                 berth OR quay         → "berth" OR "quay"         (either)
 *   NOT                notice NOT draft      → "notice" NOT "draft"      (the first without the second)
 *   AND, ( )           (berth OR quay) dues  → ("berth" OR "quay") "dues"
 *
 * Operators are the upper-case words AND, OR, NOT (lower-case `and`, `or`, `not` are searched as
 * words, and so is "AND" in quotes). Precedence: NOT, then AND (also between words without an
 * operator), then OR; parentheses group. The output parenthesises every group itself, so it
 * never depends on FTS5's own precedence rules.
 *
 * Forgiving where the meaning is plain: a quote or a parenthesis left open runs to the end of
 * the query; a ")" that closes nothing is part of its word; terms with no letter or digit in
 * them (a lone dash, an ampersand) are dropped, since FTS5 would match nothing for them; a term
 * repeated in the same group counts once. Refused, with a {@link QueryError} that says why, when
 * it is not: nothing left to search for, an operator without something on each side, a NOT
 * with nothing before it (an index cannot list what lacks a word), empty parentheses — and a
 * query too long, with too many words or too short a prefix to answer quickly (see
 * {@link QUERY_LIMITS}).
 *
 * A term holding Chinese, Japanese or Korean characters is looked for in the archive's bigram
 * column (see cjk-bigrams.ts): 東京都 → cjk : "東京 京都". A lone CJK character is refused: the
 * column holds pairs, so it would find only where the character stands alone.
 *
 * `--fts` hands the query to FTS5 as it is, for the full syntax (NEAR, column filters, ^); FTS5's
 * own complaint about a malformed one becomes a QueryError (`fts_syntax`) with a sentence.
 */

import { hasCjk, termTokens, tokenPieces } from "./cjk-bigrams.js";

/** Why a query was refused: a code from this closed set, and a sentence for a person. */
export type QueryErrorCode =
  | "empty"
  | "dangling_operator"
  | "only_not"
  | "empty_group"
  | "short_prefix"
  | "short_term"
  | "fts_syntax"
  | "too_long"
  | "too_many_terms"
  | "too_slow"
  | "not_an_archive" | "no_trigram_index" | "index_error" | "no_document";

export class QueryError extends Error {
  constructor(
    readonly code: QueryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "QueryError";
  }
}

/**
 * The cost cap, measured on bench/archive.mjs's 100,000-chunk archive (2 cores): a query of
 * 1,000 repeated words took 25 s to over a minute, one of 100 distinct words ~0.1 s, one of 32
 * ~35 ms. 64 words is twice what a web search engine takes (32) and more than any question a
 * person types; 1,000 characters hold a pasted paragraph as a phrase. A prefix is merged from
 * the index entries of every word it starts before the first hit can be ranked: `t*` took 0.4 s
 * to merge (and 8 s with its highlights), `th*` 55 ms, `the*` 22 ms. The rest of the cost (ranking
 * a word half the archive holds) is bounded by search's time limit.
 */
export const QUERY_LIMITS = {
  /** Most characters in a query. */
  maxChars: 1_000,
  /** Most words in a query, counting each word of a phrase, after repeats are dropped. */
  maxTerms: 64,
  /** Fewest letters or digits before a prefix's `*`. */
  minPrefixChars: 3,
} as const;

export interface QueryTerm {
  type: "term";
  text: string;
  phrase: boolean;
  prefix: boolean;
}

export type QueryNode = QueryTerm | { type: "and" | "or"; children: QueryNode[] } | { type: "not"; include: QueryNode; exclude: QueryNode };

type Operator = "AND" | "OR" | "NOT";
type Token = QueryTerm | { type: "op"; op: Operator } | { type: "open" } | { type: "close" };

const SEARCHABLE = /[\p{L}\p{N}]/u;
const WORDS = /[\p{L}\p{N}]+/gu;
const OPERATORS = new Set<string>(["AND", "OR", "NOT"]);

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close < 0 ? query.length : close;
      const text = query.slice(i + 1, end).trim();
      i = close < 0 ? query.length : close + 1;
      let prefix = false;
      while (query[i] === "*") {
        prefix = true;
        i++;
      }
      if (SEARCHABLE.test(text)) tokens.push({ type: "term", text, phrase: true, prefix });
    } else if (ch === "(") {
      // Only at the start of a word: "3(b)" and "NEAR(a" are words.
      tokens.push({ type: "open" });
      depth++;
      i++;
    } else {
      let end = i;
      while (end < query.length && !/\s/.test(query[end]!) && query[end] !== '"') end++;
      let word = query.slice(i, end);
      i = end;
      // Closing parentheses at a word's end close the groups that are open; others are the word's.
      let closes = 0;
      while (closes < depth && word.endsWith(")")) {
        word = word.slice(0, -1);
        closes++;
      }
      if (OPERATORS.has(word)) tokens.push({ type: "op", op: word as Operator });
      else {
        const text = word.replace(/\*+$/, "");
        if (SEARCHABLE.test(text)) tokens.push({ type: "term", text, phrase: false, prefix: text !== word });
      }
      for (let n = 0; n < closes; n++) tokens.push({ type: "close" });
      depth -= closes;
    }
  }
  return tokens;
}

const EXAMPLE: Record<Operator, string> = { AND: "notice AND termination", OR: "berth OR quay", NOT: "notice NOT draft" };

/** Recursive descent over the tokens: or := and (OR and)* ; and := not (AND? not)* ; not := primary (NOT primary)* ; primary := term | ( or ). */
class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly query: string,
  ) {}

  parse(): QueryNode {
    const node = this.or();
    // Only an unmatched operator or an empty group can stop the descent early.
    if (this.at < this.tokens.length) this.fail(this.tokens[this.at]!);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isOp(token: Token | undefined, op: Operator): boolean {
    return token?.type === "op" && token.op === op;
  }

  private or(): QueryNode {
    const children = [this.and()];
    while (this.isOp(this.peek(), "OR")) {
      this.at++;
      children.push(this.and());
    }
    return group("or", children);
  }

  private and(): QueryNode {
    const children = [this.not()];
    for (;;) {
      const next = this.peek();
      if (this.isOp(next, "AND")) {
        this.at++;
        children.push(this.not());
      } else if (next && (next.type === "term" || next.type === "open")) {
        children.push(this.not());
      } else break;
    }
    return group("and", children);
  }

  private not(): QueryNode {
    let node = this.primary();
    while (this.isOp(this.peek(), "NOT")) {
      this.at++;
      node = { type: "not", include: node, exclude: this.primary() };
    }
    return node;
  }

  private primary(): QueryNode {
    const token = this.peek();
    if (token?.type === "term") {
      this.at++;
      return token;
    }
    if (token?.type === "open") {
      this.at++;
      if (this.peek()?.type === "close" || this.peek() === undefined) this.fail(token);
      const node = this.or();
      // A group left open runs to the end of the query.
      if (this.peek()?.type === "close") this.at++;
      return node;
    }
    return this.fail(token);
  }

  /** The error for a token that cannot stand where it is (undefined: the query ended there). */
  private fail(token: Token | undefined): never {
    const previous = this.tokens[this.at - 1];
    if (token?.type === "open" || (token?.type === "close" && previous?.type === "open")) {
      throw new QueryError("empty_group", `empty parentheses in ${JSON.stringify(this.query)}: put words inside them, or leave them out`);
    }
    const op = token?.type === "op" ? token.op : previous?.type === "op" ? previous.op : undefined;
    const first = this.at === 0 || previous?.type === "open" || (previous?.type === "op" && previous.op !== "NOT");
    if (op === "NOT" && token?.type === "op" && first) {
      throw new QueryError("only_not", `NOT needs something to search for before it, as in ${EXAMPLE.NOT}: the index can find what has a word, not list everything that lacks one`);
    }
    if (op) {
      throw new QueryError("dangling_operator", `${op} needs a word, a "phrase" or a (group) on each side, as in ${EXAMPLE[op]}; to search for the word itself, write it in quotes ("${op}") or in lower case`);
    }
    throw new QueryError("empty", nothingToSearch(this.query));
  }
}

function group(type: "and" | "or", children: QueryNode[]): QueryNode {
  const flat: QueryNode[] = [];
  const seen = new Set<string>();
  for (const child of children.flatMap((c) => (c.type === type ? c.children : [c]))) {
    // A term repeated in one group asks nothing more, and costs FTS5 as much again.
    const key = serialize(child);
    if (seen.has(key)) continue;
    seen.add(key);
    flat.push(child);
  }
  return flat.length === 1 ? flat[0]! : { type, children: flat };
}

function nothingToSearch(query: string): string {
  return `nothing to search for in ${JSON.stringify(query)}: give a word, a "phrase in quotes" or a prefix*`;
}

/** The query's syntax tree; throws QueryError for a query that cannot be searched (see the module comment). */
export function parseQuery(query: string): QueryNode {
  if (query.length > QUERY_LIMITS.maxChars) {
    throw new QueryError("too_long", `the query is ${query.length.toLocaleString("en-US")} characters long; at most ${QUERY_LIMITS.maxChars.toLocaleString("en-US")} are searched`);
  }
  const tokens = tokenize(query);
  // A lone operator is better told as one (the parser says so) than as nothing to search for.
  if (!tokens.some((t) => t.type === "term" || t.type === "op")) throw new QueryError("empty", nothingToSearch(query));
  const node = new Parser(tokens, query).parse();
  // The * applies to the term's last word ("one two thr"* is one two, then thr…).
  const short = positiveAndNegativeTerms(node).find((t) => t.prefix && [...((t.text.match(WORDS) ?? []).at(-1) ?? "")].length < QUERY_LIMITS.minPrefixChars);
  if (short) {
    throw new QueryError("short_prefix", `${JSON.stringify(short.text + "*")} is too short a prefix: give at least ${QUERY_LIMITS.minPrefixChars} letters before the *, or the whole word`);
  }
  const lone = positiveAndNegativeTerms(node)
    .flatMap((t) => termTokens(t.text))
    .find((token) => hasCjk(token) && [...token].length === 1);
  if (lone) {
    throw new QueryError(
      "short_term",
      `${JSON.stringify(lone)} is a single Chinese, Japanese or Korean character: the index holds such text as pairs of characters, so search for two or more together (the word it is part of)`,
    );
  }
  const words = countWords(node);
  if (words > QUERY_LIMITS.maxTerms) {
    throw new QueryError("too_many_terms", `the query has ${words.toLocaleString("en-US")} words; at most ${QUERY_LIMITS.maxTerms} are searched: keep the ones that tell the documents you want apart`);
  }
  return node;
}

/** The terms a query looks for (not the ones after NOT): what a page highlights. */
export function positiveTerms(node: QueryNode): QueryTerm[] {
  if (node.type === "term") return [node];
  if (node.type === "not") return positiveTerms(node.include);
  return node.children.flatMap(positiveTerms);
}

/** True when some term of the query is a prefix (every lookup of a prefix merges many index entries). */
export function hasPrefix(node: QueryNode): boolean {
  return positiveAndNegativeTerms(node).some((t) => t.prefix);
}

/**
 * For each prefix term, the length in characters of what the * applies to: the term's last
 * word, or the last pair of characters of a CJK word (FTS5 uses a prefix index only for a
 * prefix of exactly its length).
 */
export function prefixLengths(node: QueryNode): number[] {
  return positiveAndNegativeTerms(node)
    .filter((t) => t.prefix)
    .map((t) => {
      const last = termTokens(t.text).at(-1) ?? "";
      return [...(hasCjk(last) ? (tokenPieces(last).at(-1) ?? last) : last)].length;
    });
}

function positiveAndNegativeTerms(node: QueryNode): QueryTerm[] {
  if (node.type === "term") return [node];
  if (node.type === "not") return [...positiveAndNegativeTerms(node.include), ...positiveAndNegativeTerms(node.exclude)];
  return node.children.flatMap(positiveAndNegativeTerms);
}

function countWords(node: QueryNode): number {
  // A CJK word is looked up as its pairs of characters: each pair counts.
  if (node.type === "term") return Math.max(1, termTokens(node.text).reduce((n, t) => n + (hasCjk(t) ? Math.max(1, tokenPieces(t).length) : 1), 0));
  if (node.type === "not") return countWords(node.include) + countWords(node.exclude);
  return node.children.reduce((n, c) => n + countWords(c), 0);
}

/** What the archive's index has: the CJK bigram column (schema 5) or not (an older archive, read as it is). */
export interface IndexColumns {
  cjk: boolean;
}

/** The FTS5 MATCH expression for a parsed query. */
export function matchExpression(node: QueryNode, columns: IndexColumns = { cjk: true }): string {
  return serialize(node, columns);
}

function serialize(node: QueryNode, columns: IndexColumns = { cjk: true }): string {
  switch (node.type) {
    case "term":
      return columns.cjk && hasCjk(node.text) ? cjkTerm(node) : ftsString(node.text, node.prefix);
    case "and":
      // FTS5 reads juxtaposition as AND between phrases only: a group needs the word.
      return node.children.map((c) => operand(c, columns)).join(node.children.every((c) => isPhrase(c, columns)) ? " " : " AND ");
    case "or":
      return node.children.map((c) => operand(c, columns)).join(" OR ");
    case "not":
      return `${operand(node.include, columns)} NOT ${operand(node.exclude, columns)}`;
  }
}

function ftsString(text: string, prefix: boolean): string {
  return `"${text.replaceAll('"', '""')}"${prefix ? " *" : ""}`;
}

/** A term that serializes to one FTS5 phrase (no column filter, no group). */
function isPhrase(node: QueryNode, columns: IndexColumns): boolean {
  return node.type === "term" && !(columns.cjk && hasCjk(node.text));
}

/**
 * A term with CJK characters: each token holding them as the phrase of its bigram pieces in the
 * `cjk` column, the runs of other tokens between them as phrases of the text, all of them
 * required (a phrase cannot span two columns). The term's prefix star goes to its last piece.
 */
function cjkTerm(term: QueryTerm): string {
  const parts = cjkPhrases(term).map((p) => p.match);
  return parts.length === 1 ? parts[0]! : `(${parts.join(" AND ")})`;
}

function cjkPhrases(term: QueryTerm): MatchPhrase[] {
  const tokens = termTokens(term.text);
  const parts: MatchPhrase[] = [];
  let plain: string[] = [];
  const flushPlain = (last: boolean) => {
    if (plain.length) parts.push(phrase(plain.join(" "), last && term.prefix));
    plain = [];
  };
  tokens.forEach((token, i) => {
    const last = i === tokens.length - 1;
    if (!hasCjk(token)) {
      plain.push(token);
      if (last) flushPlain(true);
      return;
    }
    flushPlain(false);
    const pieces = phrase(tokenPieces(token).join(" "), last && term.prefix);
    parts.push({ ...pieces, match: `cjk : ${pieces.match}` });
  });
  return parts;
}

/** A phrase of the MATCH expression: as a MATCH of its own (with its column filter), its text, and whether it is a prefix. */
export interface MatchPhrase {
  match: string;
  text: string;
  prefix: boolean;
}

function phrase(text: string, prefix: boolean): MatchPhrase {
  return { match: ftsString(text, prefix), text, prefix };
}

/**
 * The phrases FTS5 reads in the MATCH expression of `node` (matchExpression) that can add to a
 * matched row's bm25 score. bm25 sums over every phrase, but one after NOT adds nothing when any
 * of the excluded side's phrases alone excludes a row (a word, a phrase, words joined by OR): a
 * row that matches holds none of them. Other excluded sides (`a NOT (b c)`) keep their phrases.
 */
export function matchPhrases(node: QueryNode, columns: IndexColumns = { cjk: true }): MatchPhrase[] {
  switch (node.type) {
    case "term":
      return columns.cjk && hasCjk(node.text) ? cjkPhrases(node) : [phrase(node.text, node.prefix)];
    case "and":
    case "or":
      return node.children.flatMap((c) => matchPhrases(c, columns));
    case "not":
      return [...matchPhrases(node.include, columns), ...(excludesAlone(node.exclude, columns) ? [] : matchPhrases(node.exclude, columns))];
  }
}

/**
 * The phrases a matched row's bm25 score is summed over, for a query whose every match can hold
 * as few as one of them: a phrase, phrases joined by OR, any of these followed by NOT. Undefined
 * for other queries (words joined by AND, a CJK word written as several phrases), whose phrases
 * all occur together in every match.
 */
export function alternativePhrases(node: QueryNode, columns: IndexColumns = { cjk: true }): MatchPhrase[] | undefined {
  switch (node.type) {
    case "term": {
      const phrases = matchPhrases(node, columns);
      return phrases.length === 1 ? phrases : undefined;
    }
    case "or": {
      const each = node.children.map((c) => alternativePhrases(c, columns));
      return each.every((p) => p !== undefined) ? each.flat() : undefined;
    }
    case "not": {
      const include = alternativePhrases(node.include, columns);
      return include && [...include, ...(excludesAlone(node.exclude, columns) ? [] : matchPhrases(node.exclude, columns))];
    }
    case "and":
      return undefined;
  }
}

/** True when each phrase of `node` alone makes it match: a term of one phrase, or such terms joined by OR. */
function excludesAlone(node: QueryNode, columns: IndexColumns): boolean {
  if (node.type === "term") return matchPhrases(node, columns).length === 1;
  return node.type === "or" && node.children.every((c) => excludesAlone(c, columns));
}

/** A group inside another is parenthesised, whatever the operators. */
function operand(node: QueryNode, columns: IndexColumns): string {
  if (node.type === "term") return isPhrase(node, columns) ? serialize(node, columns) : `(${serialize(node, columns)})`;
  return `(${serialize(node, columns)})`;
}

/** The MATCH expression for a query; throws QueryError when it cannot be searched. */
export function toFtsQuery(query: string, columns: IndexColumns = { cjk: true }): string {
  return serialize(parseQuery(query), columns);
}

/**
 * A query in FTS5's own syntax (`--fts`), handed over as it is once it passes the same limits
 * of length; FTS5 judges the rest (see search.ts, which turns its complaints into `fts_syntax`).
 */
export function toRawFtsQuery(query: string): string {
  if (query.length > QUERY_LIMITS.maxChars) {
    throw new QueryError("too_long", `the query is ${query.length.toLocaleString("en-US")} characters long; at most ${QUERY_LIMITS.maxChars.toLocaleString("en-US")} are searched`);
  }
  if (!SEARCHABLE.test(query)) throw new QueryError("empty", nothingToSearch(query));
  return query;
}

/** The MATCH expression for a substring search in the trigram index: the whole query, literally. */
export function toTrigramQuery(query: string): string {
  const text = query.trim();
  if (text.length > QUERY_LIMITS.maxChars) {
    throw new QueryError("too_long", `the query is ${text.length.toLocaleString("en-US")} characters long; at most ${QUERY_LIMITS.maxChars.toLocaleString("en-US")} are searched`);
  }
  if ([...text].length < 3) throw new QueryError("empty", `a substring search needs at least 3 characters, got ${JSON.stringify(text)}`);
  return `"${text.replaceAll('"', '""')}"`;
}
