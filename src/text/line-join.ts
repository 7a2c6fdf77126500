/**
 * How two printed lines of one paragraph (or of one table cell) join in running text: with a
 * space, except where words do not have spaces between them. Chinese and Japanese are written
 * without spaces: a line of Han or kana breaks anywhere, and its next line goes on at once
 * ("持分法の適用範囲" + "の変動" is "持分法の適用範囲の変動"). Korean separates its words with
 * spaces, so Hangul lines join like Latin ones.
 */

import { breaksWordBefore } from "./word-breaks.js";

/** Han ideographs, kana, CJK punctuation and full-width forms: the characters that take no space between them. */
const UNSPACED = /[\u2E80-\u2FFF\u3000-\u303F\u3040-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF01-\uFF60\uFFE0-\uFFEF\u{20000}-\u{3134F}]/u;

/** The separator between a line ending in `before` and the next one starting with `after`: " " or "". */
export function lineJoiner(before: string, after: string): string {
  return UNSPACED.test(lastChar(before)) && UNSPACED.test(firstChar(after)) ? "" : " ";
}

/**
 * A table cell's printed lines as the row's text shows the cell: joined as paragraph lines are,
 * but with nothing after a hyphen that breaks a word (whether it stays is the dehyphenate
 * stage's decision; a space after it is wrong either way).
 */
export function joinCellLines(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) text = !text ? line : breaksWordBefore(text, line) ? text + line : text + lineJoiner(text, line) + line;
  return text;
}

// Both look at the ends of the text only: a paragraph's text grows line by line and is asked
// again at each line, so reading all of it each time would cost its length squared.
function lastChar(text: string): string {
  let i = text.length;
  while (i > 0 && /\s/u.test(text[i - 1]!)) i--;
  if (i === 0) return "";
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text[i - 1]!;
}

function firstChar(text: string): string {
  let i = 0;
  while (i < text.length && /\s/u.test(text[i]!)) i++;
  return i === text.length ? "" : String.fromCodePoint(text.codePointAt(i)!);
}
