/**
 * A person's search query → an FTS5 MATCH expression. The query is never handed to FTS5 as it
 * is: FTS5 reads AND, OR, NOT, NEAR, parentheses, `column:` and `^` as syntax, so "salt AND
 * pepper" or "ratio: 3" would be an error or a different question. Instead each word and each
 * quoted phrase becomes an FTS5 string, which FTS5 only tokenizes:
 *
 *   plain words        harbour dues         → "harbour" "dues"        (all of them, any order)
 *   phrases in quotes  "written notice"     → "written notice"        (those words in a row)
 *   prefix*            dredg*               → "dredg" *               (words starting so)
 *
 * A quote left open runs to the end of the query. Terms with no letter or digit in them (a lone
 * dash, an ampersand) are dropped, since FTS5 would match nothing for them; a query left with no
 * term at all is an error that says so.
 */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QueryError";
  }
}

export interface QueryTerm {
  text: string;
  phrase: boolean;
  prefix: boolean;
}

const SEARCHABLE = /[\p{L}\p{N}]/u;

export function parseQuery(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
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
      if (SEARCHABLE.test(text)) terms.push({ text, phrase: true, prefix });
    } else {
      let end = i;
      while (end < query.length && !/\s/.test(query[end]!) && query[end] !== '"') end++;
      const word = query.slice(i, end);
      i = end;
      const text = word.replace(/\*+$/, "");
      if (SEARCHABLE.test(text)) terms.push({ text, phrase: false, prefix: text !== word });
    }
  }
  return terms;
}

/** The MATCH expression for a query; throws QueryError when it holds nothing to search for. */
export function toFtsQuery(query: string): string {
  const terms = parseQuery(query);
  if (terms.length === 0) throw new QueryError(`nothing to search for in ${JSON.stringify(query)}: give a word, a "phrase in quotes" or a prefix*`);
  return terms.map((t) => `"${t.text.replaceAll('"', '""')}"${t.prefix ? " *" : ""}`).join(" ");
}

/** The MATCH expression for a substring search in the trigram index: the whole query, literally. */
export function toTrigramQuery(query: string): string {
  const text = query.trim();
  if ([...text].length < 3) throw new QueryError(`a substring search needs at least 3 characters, got ${JSON.stringify(text)}`);
  return `"${text.replaceAll('"', '""')}"`;
}
