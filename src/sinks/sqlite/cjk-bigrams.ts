/**
 * Chinese, Japanese and Korean text, made findable by word. FTS5's unicode61 tokenizer ends a
 * token only at spaces and punctuation, so a sentence written without spaces — as Chinese and
 * Japanese are — is one token, and a search for one of its words finds nothing. The archive
 * therefore keeps a second indexed column beside the text (`chunks.cjk`) holding each CJK run as
 * overlapping pairs of characters (bigrams, as Lucene's CJKBigramFilter makes them):
 * 東京都庁 → 東京 京都 都庁. A query's CJK run becomes the phrase of its own bigrams, which occurs
 * exactly where the run occurs in the text, so a word of two characters or more is found wherever
 * it is written, inside a longer run too.
 *
 * Only the tokens that hold CJK characters are written to the column (with the non-CJK parts of
 * those tokens, `新iPhone专卖店` → 新 iPhone 专卖 卖店): text without CJK leaves it empty, so an
 * archive of English costs nothing more and its searches rank as before.
 */

/** The scripts paired into bigrams: Han, Hiragana, Katakana (with marks they share, such as ー) and Hangul. */
const CJK_CHAR = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
/** unicode61's token characters by default: letters, numbers and private-use characters ("L* N* Co"). */
const TOKENS = /[\p{L}\p{N}\p{Co}]+/gu;
const SEGMENTS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** A token's pieces as the column holds them: each CJK run as its bigrams (a run of one character as itself), other runs whole. */
export function tokenPieces(token: string): string[] {
  const pieces: string[] = [];
  for (const [segment] of token.matchAll(SEGMENTS)) {
    if (!hasCjk(segment)) {
      pieces.push(segment);
      continue;
    }
    const chars = [...segment];
    if (chars.length === 1) pieces.push(segment);
    for (let i = 0; i + 1 < chars.length; i++) pieces.push(chars[i]! + chars[i + 1]!);
  }
  return pieces;
}

/** The text's CJK-holding tokens as bigram pieces, separated by spaces: what `chunks.cjk` holds ("" without CJK). */
export function cjkIndexText(text: string): string {
  if (!hasCjk(text)) return "";
  const out: string[] = [];
  // No spread: a chunk written without spaces is one token of as many bigrams as characters.
  for (const [token] of text.matchAll(TOKENS)) if (hasCjk(token)) for (const piece of tokenPieces(token)) out.push(piece);
  return out.join(" ");
}

/** The tokens of a query term's text, as unicode61 splits it. */
export function termTokens(text: string): string[] {
  return [...text.matchAll(TOKENS)].map((m) => m[0]);
}

/**
 * Where a CJK query term occurs in a text: the term's tokens in a row, separated by anything
 * that is not a token character, case-insensitive. FTS5's highlight() marks only the text
 * column's tokens; these are the matches the bigram column found.
 */
export function cjkPattern(text: string): RegExp | undefined {
  const tokens = termTokens(text);
  if (!tokens.some(hasCjk)) return undefined;
  const escaped = tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(escaped.join("[^\\p{L}\\p{N}\\p{Co}]+"), "giu");
}
