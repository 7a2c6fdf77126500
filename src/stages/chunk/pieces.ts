/**
 * The document cut into pieces no larger than a chunk may hold, each with the strength of the
 * boundary before it. From the strongest to the weakest:
 *
 *   section (before a heading; before an H1 strongest) > paragraph (between blocks, between the
 *   rows of a table) > sentence (and between the lines of a code listing) > word > inside a word.
 *
 * A block that fits is one piece, so a table or a code listing that fits stays whole. A block
 * that does not is cut at its next weaker boundaries, recursively, down to words; only a single
 * "word" longer than a chunk (a URL, a base64 blob, unspaced CJK text) is cut inside: where
 * letters meet punctuation or around CJK characters, else between any two characters.
 *
 * Two boundaries between blocks are weak on purpose: the one after a heading (a heading stays
 * with what it heads), and a page break in mid-paragraph (the page says its last paragraph goes
 * on, or that paragraph ends without a full stop and the next page goes on in lower case).
 */
import type { Block } from "../../text/document-view.js";
import { MARKDOWN_SEPARATOR } from "../../text/markdown.js";
import { codePointPoints, segmentPoints, sentenceStarts, spansAt, wordStarts, type Span } from "./boundaries.js";
import type { Tokenizer } from "./tokenizer.js";

export const CUT = { insideWord: 0, word: 1, sentence: 2, paragraph: 3 } as const;

/** Before a heading: stronger than a paragraph break, and the stronger the higher the heading (H1 → 9, H6 → 4). */
export function sectionCut(level: number): number {
  return CUT.paragraph + 7 - level;
}

export interface Piece {
  start: number;
  end: number;
  /** Tokens of the piece's own text. */
  tokens: number;
  /** Strength of the boundary before the piece (see CUT); the first piece's is not used. */
  cut: number;
  /** For a row of a split table after its header: the header row, repeated by a chunk that starts here. */
  header?: Span;
}

export interface PieceLimits {
  /** Most tokens for a piece of running text: max_tokens less the overlap its chunk will carry. */
  text: number;
  /** Most tokens for a table or code listing kept whole: max_tokens (its chunk carries less overlap). */
  whole: number;
}

const ENDS_SENTENCE = /[.!?…:;"'”’)\]]$/u;
const STARTS_LOWER = /^\p{Ll}/u;

export function documentPieces(text: string, blocks: readonly Block[], tokenizer: Tokenizer, limits: PieceLimits): Piece[] {
  const pieces: Piece[] = [];
  const count = (start: number, end: number) => tokenizer.count(text.slice(start, end));

  const insideWord = (span: Span, cut: number, header?: Span, wordTokens = count(span.start, span.end)) => {
    // Cut points are searched only in a window sized from the word's own characters per token
    // (widened while the whole window still fits), not in the whole word: a 1 MB blob must not
    // be segmented again for every piece.
    const charsPerToken = (span.end - span.start) / Math.max(1, wordTokens);
    let from = span.start;
    while (from < span.end) {
      let window = Math.min(span.end, from + Math.ceil(limits.text * charsPerToken * 1.5) + 8);
      while (window < span.end && count(from, window) <= limits.text) window = Math.min(span.end, from + (window - from) * 2);
      let to = furthestFitting(segmentPoints(text, from, window), from, window);
      if (to < 0) to = furthestFitting(codePointPoints(text, from, window), from, window);
      if (to < 0) to = from + (text.codePointAt(from)! > 0xffff ? 2 : 1); // one character over the limit (never with max_tokens ≥ 16)
      pieces.push({ start: from, end: to, tokens: count(from, to), cut: from === span.start ? cut : CUT.insideWord, ...(header && from === span.start ? { header } : {}) });
      from = to;
    }
  };
  /** The furthest of `points` (ascending, inside `(from, end)`) or `end` up to which `[from, point)` fits, or -1. */
  const furthestFitting = (points: number[], from: number, end: number): number => {
    const candidates = [...points, end];
    let lo = 0;
    let hi = candidates.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (count(from, candidates[mid]!) <= limits.text) {
        best = candidates[mid]!;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  };
  const words = (span: Span, cut: number, header?: Span) => {
    spansAt(text, span.start, span.end, wordStarts(text, span.start, span.end)).forEach((word, i) => {
      const wordCut = i === 0 ? cut : CUT.word;
      const wordHeader = i === 0 ? header : undefined;
      const tokens = count(word.start, word.end);
      if (tokens <= limits.text) pieces.push({ ...word, tokens, cut: wordCut, ...(wordHeader ? { header: wordHeader } : {}) });
      else insideWord(word, wordCut, wordHeader, tokens);
    });
  };
  const sentences = (span: Span, cut: number) => {
    spansAt(text, span.start, span.end, sentenceStarts(text, span.start, span.end)).forEach((sentence, i) => {
      const sentenceCut = i === 0 ? cut : CUT.sentence;
      const tokens = count(sentence.start, sentence.end);
      if (tokens <= limits.text) pieces.push({ ...sentence, tokens, cut: sentenceCut });
      else words(sentence, sentenceCut);
    });
  };
  /**
   * A table by rows (each after the header repeats it), a code listing by lines. In the Markdown
   * view a table's separator row belongs to its header row, and a fenced listing's opening fence
   * is its header: the chunk that goes on with the listing opens the fence again.
   */
  const rows = (block: Block, cut: number) => {
    const printed = lineSpans(text, block.start, block.end);
    const separated = block.kind === "table" && printed.length > 2 && MARKDOWN_SEPARATOR.test(text.slice(printed[1]!.start, printed[1]!.end));
    const lines = separated ? [{ start: printed[0]!.start, end: printed[1]!.end }, ...printed.slice(2)] : printed;
    const fenced = block.kind === "code" && FENCE.test(text.slice(lines[0]!.start, lines[0]!.end));
    const header = (block.kind === "table" || fenced) && lines.length > 1 ? lines[0] : undefined;
    lines.forEach((line, i) => {
      // A header row stays with the first row under it, as a heading stays with what it heads.
      const lineCut = i === 0 ? cut : i === 1 && header ? CUT.word : block.kind !== "table" ? CUT.sentence : CUT.paragraph;
      const lineHeader = i > 0 ? header : undefined;
      const tokens = count(line.start, line.end);
      if (tokens <= limits.text) pieces.push({ ...line, tokens, cut: lineCut, ...(lineHeader ? { header: lineHeader } : {}) });
      else words(line, lineCut, lineHeader);
    });
  };

  blocks.forEach((block, i) => {
    const cut = i === 0 ? CUT.paragraph : cutBetween(blocks[i - 1]!, block, text);
    const whole = block.kind === "table" || block.kind === "code";
    const tokens = count(block.start, block.end);
    if (tokens <= (whole ? limits.whole : limits.text)) pieces.push({ start: block.start, end: block.end, tokens, cut });
    else if (whole) rows(block, cut);
    else sentences(block, cut);
  });
  return pieces;
}

/** The opening fence of a Markdown code block. */
const FENCE = /^`{3,}$/u;

/** The strength of the boundary between two consecutive blocks. */
export function cutBetween(before: Block, after: Block, text: string): number {
  if (before.kind === "heading") return CUT.word;
  if (after.kind === "heading") return sectionCut(after.level ?? 6);
  if (before.page !== after.page && before.kind === "text" && after.kind === "text") {
    // The page said its last paragraph goes on (dehyphenation), or it ends without a full stop
    // and the next page goes on in lower case.
    if (before.continues || (!ENDS_SENTENCE.test(text[before.end - 1]!) && STARTS_LOWER.test(text[after.start]!))) return CUT.word;
  }
  return CUT.paragraph;
}

/** The non-blank lines of `[from, to)`, indentation kept, trailing white space dropped. */
function lineSpans(text: string, from: number, to: number): Span[] {
  const spans: Span[] = [];
  let start = from;
  while (start < to) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > to) end = to;
    let trimmed = end;
    while (trimmed > start && /\s/.test(text[trimmed - 1]!)) trimmed--;
    if (trimmed > start) spans.push({ start, end: trimmed });
    start = end + 1;
  }
  return spans;
}
