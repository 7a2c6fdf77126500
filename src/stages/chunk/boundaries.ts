/**
 * Where text may be cut below the paragraph: at sentence starts, then at word starts, and — only
 * for a "word" longer than a whole chunk (a URL, a base64 blob, a run of CJK text) — where its
 * letters meet punctuation or around CJK characters, else between any two characters.
 *
 * Sentences are found by rule, not by a model: a sentence ends at . ! ? … (and the quotes or
 * brackets that close it) followed by white space and then a capital, a digit or an opening
 * quote. A full stop after an initial ("S. Haddad"), a common abbreviation ("e.g. The", "Dr.
 * Okafor") or a list number at the start of a line ("1. Minutes") ends nothing. CJK full stops
 * end a sentence with no space after them. Offsets are into the whole text, so no slice is made.
 */

export interface Span {
  start: number;
  end: number;
}

const SENTENCE_END = /(?:[.!?…]+["'”’»)\]]*(?=\s+["'“‘«(\[]?[\p{Lu}\p{N}]))|(?:[。！？]+["'”’」』)]*)/gu;
const ABBREVIATIONS = new Set([
  "mr", "mrs", "ms", "dr", "prof", "st", "no", "nos", "vs", "e.g", "i.e", "cf", "fig", "figs", "jr", "sr", "vol", "pp", "al", "approx", "dept", "art", "sec", "ch",
]);

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * Sentence starts strictly inside `[from, to)` of `text`, ascending. `from` itself is not
 * reported: it is where the caller's span starts anyway.
 */
export function sentenceStarts(text: string, from: number, to: number): number[] {
  const starts: number[] = [];
  SENTENCE_END.lastIndex = from;
  for (let m = SENTENCE_END.exec(text); m && m.index < to; m = SENTENCE_END.exec(text)) {
    if (m[0].startsWith(".") && !endsSentence(text, from, m.index)) continue;
    let start = m.index + m[0].length;
    while (start < to && isSpace(text[start])) start++;
    if (start > from && start < to) starts.push(start);
  }
  return starts;
}

/** Whether the full stop at `dot` ends a sentence, judging by the word before it. */
function endsSentence(text: string, from: number, dot: number): boolean {
  let wordStart = dot;
  while (wordStart > from && !isSpace(text[wordStart - 1])) wordStart--;
  const word = text.slice(wordStart, dot).replace(/^["'“‘«(\[]+/u, "");
  if (/^\p{Lu}$/u.test(word)) return false; // an initial
  if (ABBREVIATIONS.has(word.toLowerCase())) return false;
  // A list number ("1.", "4.2.") at the start of the text or of a line.
  if (/^\d+(\.\d+)*$/.test(word) && (wordStart === from || text[wordStart - 1] === "\n")) return false;
  return true;
}

/** Word starts strictly inside `[from, to)`: a non-space character after a space. */
export function wordStarts(text: string, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let i = from + 1; i < to; i++) if (!isSpace(text[i]) && isSpace(text[i - 1])) starts.push(i);
  return starts;
}

/** The first word start strictly inside `[from, to)`, or `to` when there is none. */
export function nextWordStart(text: string, from: number, to: number): number {
  for (let i = from + 1; i < to; i++) if (!isSpace(text[i]) && isSpace(text[i - 1])) return i;
  return to;
}

/**
 * `[from, to)` cut at `starts` (ascending, inside the span), each part without the white space
 * that trails it. Parts that are only white space are dropped.
 */
export function spansAt(text: string, from: number, to: number, starts: readonly number[]): Span[] {
  const spans: Span[] = [];
  const bounds = [from, ...starts, to];
  for (let i = 0; i + 1 < bounds.length; i++) {
    let start = bounds[i]!;
    let end = bounds[i + 1]!;
    while (end > start && isSpace(text[end - 1])) end--;
    while (start < end && isSpace(text[start])) start++;
    if (end > start) spans.push({ start, end });
  }
  return spans;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORDLIKE = /[\p{L}\p{N}\p{M}]/u;

/**
 * Cut points inside one long "word": where letters and digits meet punctuation (between the
 * parts of a URL or a path: `example.com/a/b`), and around every CJK character (CJK text is
 * written without spaces and wraps between any two characters).
 */
export function segmentPoints(text: string, from: number, to: number): number[] {
  const points: number[] = [];
  let previous = "";
  for (let i = from; i < to; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    const kind = CJK.test(ch) ? "cjk" : WORDLIKE.test(ch) ? "word" : "mark";
    if (i > from && (kind !== previous || kind === "cjk")) points.push(i);
    previous = kind;
    i += ch.length;
  }
  return points;
}

/** Every code point boundary inside `[from, to)`: never inside a surrogate pair. */
export function codePointPoints(text: string, from: number, to: number): number[] {
  const points: number[] = [];
  for (let i = from; i < to; ) {
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    if (i < to) points.push(i);
  }
  return points;
}
