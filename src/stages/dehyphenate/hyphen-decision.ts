/**
 * Whether a hyphen at a line end was the typesetter's (the word was broken there: join it) or
 * the text's own (`well-known`, `COVID-19`, `Osei-Mensah`: keep it, with no space after it).
 *
 * The base rule (docs/extraction.md §10.1) looks only at the next line: lower case joins, a capital or a digit
 * keeps. It gets `well-` + `known` wrong, which no rule on two lines can get right; evidence can:
 * 1. a soft hyphen (U+00AD) is a typesetter's hyphen by definition;
 * 2. a digit after it keeps it (COVID-19, 2026-03-31);
 * 3. the document itself (and the documents of the run before it): the word written elsewhere
 *    as `well-known` or as `wellknown`, whichever is more frequent;
 * 4. a capital after it keeps it (Osei-Mensah, client-Side, Bundes-Verfassungsgericht): German
 *    compounds keep their capitals; in text set in capitals (EX- + PRESSED) a capital says
 *    nothing, and the word list or the base rule decides;
 * 5. a word list for the document's language: the joined word is a word → join; it is not, but
 *    both halves are → keep (`wellknown` is no word, `well` and `known` are);
 * 6. otherwise the base rule: join.
 */
export interface WordEvidence {
  /** How often the word occurs written this way (lower case; `well-known` or `wellknown`). */
  count(word: string): number;
  /** Whether the word is in the language's word list, when one is in use. */
  isWord?(word: string): boolean;
}

export interface HyphenDecision {
  join: boolean;
  reason: "soft_hyphen" | "case_rule" | "document" | "dictionary";
}

export function decideHyphen(left: string, right: string, softHyphen: boolean, evidence: WordEvidence): HyphenDecision {
  if (softHyphen) return { join: true, reason: "soft_hyphen" };
  if (!/^\p{L}/u.test(right)) return { join: false, reason: "case_rule" };
  const solid = (left + right).toLowerCase();
  const hyphenated = `${left}-${right}`.toLowerCase();
  const asSolid = evidence.count(solid);
  const asHyphenated = evidence.count(hyphenated);
  if (asSolid !== asHyphenated) return { join: asSolid > asHyphenated, reason: "document" };
  if (/^\p{Lu}/u.test(right) && !(isCapitals(left) && isCapitals(right))) return { join: false, reason: "case_rule" };
  if (evidence.isWord) {
    if (evidence.isWord(solid)) return { join: true, reason: "dictionary" };
    if (left.length > 1 && evidence.isWord(left.toLowerCase()) && evidence.isWord(right.toLowerCase())) return { join: false, reason: "dictionary" };
  }
  return { join: true, reason: "case_rule" };
}

/** A word of two or more letters, all capitals (text set in capitals, not a name). */
function isCapitals(word: string): boolean {
  return /^\p{Lu}{2,}$/u.test(word);
}
