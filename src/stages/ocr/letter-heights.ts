/**
 * What a word's letters say about its box: how far above the baseline they reach (the ascender
 * line, only the x-height, or in between) and how far below (descenders, a trailing comma).
 */

/** Reach the ascender line: capitals, digits, b d f h k l, accented capitals and tall punctuation. */
const TALL = /[\p{Lu}\p{N}bdfhklßäöüáéíóúàèìòùâêîôûñ!?#$%&@/\\'"“”‘’„()[\]{}|]/u;
/** Rise above the x-height, short of the ascender line: t, and the dots of i and j. */
const SHORT_TALL = /[tij]/u;
const DESCENDING = /[gjpqyQç()[\]{}|]/u;
const LETTERS = /[\p{L}\p{N}]/u;
const TRAILING_COMMA = /[,;]$/u;

/** Share of an em descenders reach below the baseline; commas and semicolons about half as far. */
const DESCENDER_EM = 0.21;
const COMMA_EM = 0.12;

/**
 * `ascending`: reaches the ascender line, nothing below the baseline; `x-height`: neither;
 * `descending`: something hangs below (g, p, a trailing comma); `between`: only t, i or j rise
 * above the x-height ("to", "it"), a measure of neither line; `no-letters`: a dash, a dot.
 */
export type LetterClass = "ascending" | "x-height" | "descending" | "between" | "no-letters";

export function letterClass(text: string): LetterClass {
  if (!LETTERS.test(text)) return "no-letters";
  if (descentOf(text) > 0) return "descending";
  if (TALL.test(text)) return "ascending";
  return SHORT_TALL.test(text) ? "between" : "x-height";
}

/** How far below the baseline a word's box reaches, in ems. */
export function descentOf(text: string): number {
  if (DESCENDING.test(text)) return DESCENDER_EM;
  return TRAILING_COMMA.test(text) ? COMMA_EM : 0;
}

/** How far above the baseline a word's box reaches, in ems (a word with t or i counted as reaching the ascender line). */
export function ascentOf(text: string, ascenderEm: number, xHeightEm: number): number {
  return TALL.test(text) || SHORT_TALL.test(text) ? ascenderEm : xHeightEm;
}

/** True when the word has letters or digits whose bottoms sit on the baseline and nothing hangs below. */
export function restsOnBaseline(text: string): boolean {
  return LETTERS.test(text) && descentOf(text) === 0;
}
