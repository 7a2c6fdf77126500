/**
 * What the documents say about how words are written: counts of every word form in the text
 * (hyphenated compounds as one form), taken line by line so that the line-end breaks being
 * decided never count as evidence for themselves; and an English word list for English text.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { PageRecord } from "../../core/records.js";
import type { WordEvidence } from "./hyphen-decision.js";

const WORD = /[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)*/gu;
const NON_ASCII_HYPHEN = /[\u2010\u2011]/g;

export class WordCounts {
  private readonly counts = new Map<string, number>();

  addPages(pages: readonly PageRecord[]): this {
    for (const page of pages) {
      for (const line of page.lines) {
        // A table row shows a cell's word broken over two printed lines glued ("car-nes"): its
        // printed lines are what was written, and the break is not evidence for itself.
        if (line.cells?.some((cell) => cell.includes("\n"))) for (const cell of line.cells) for (const printed of cell.split("\n")) this.addText(printed);
        else this.addText(line.text);
      }
    }
    return this;
  }

  addText(text: string): void {
    // The Unicode hyphens are made ASCII in the line, not word by word: WORD takes the three alike
    // between the parts of a compound, so it finds the same words, written as they are counted.
    const words = text.toLowerCase().replace(NON_ASCII_HYPHEN, "-").match(WORD);
    if (!words) return;
    for (const word of words) this.counts.set(word, (this.counts.get(word) ?? 0) + 1);
  }

  count(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  /** The share of these words that are English function words: a cheap, adequate language test. */
  englishShare(): number {
    let total = 0;
    let english = 0;
    for (const [w, n] of this.counts) {
      total += n;
      if (ENGLISH_FUNCTION_WORDS.has(w)) english += n;
    }
    return total ? english / total : 0;
  }
}

const ENGLISH_FUNCTION_WORDS = new Set([
  "the", "and", "of", "to", "in", "is", "that", "for", "with", "as", "on", "by", "it", "are", "be", "this", "was", "from", "or", "which", "an", "at", "not", "have", "has",
]);

/** English running text has well over this share of function words; German, Spanish, French far less. */
export const ENGLISH_SHARE = 0.12;

/** A word list to look words up in. */
export interface WordList {
  has(word: string): boolean;
}

let englishWords: WordList | undefined;

/**
 * The ~275,000 words of an-array-of-english-words, loaded the first time a decision needs one,
 * so a document without a line-end hyphen to decide never pays for it.
 */
export function englishWordList(): WordList {
  englishWords ??= SortedWords.fromJsonArray(readFileSync(createRequire(import.meta.url).resolve("an-array-of-english-words")));
  return englishWords;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;

/**
 * A sorted list of words looked up where it lies, in the bytes of its JSON file: a binary search
 * over byte offsets, each step finding the word that starts after the middle with a native
 * `indexOf`. Nothing is prepared when the file is loaded: a pass over its 3.3 MB to find the
 * words first cost ~40 ms at every worker start (an eighth of `pagestream extract` on a short
 * file), and JSON.parse with a Set of the same 275,000 words ~270 ms.
 */
export class SortedWords implements WordList {
  private constructor(private readonly bytes: Buffer) {}

  /**
   * From a JSON array of plain words sorted by their UTF-8 bytes; no word may hold a quote,
   * start with white space or end with a comma (an-array-of-english-words holds none).
   */
  static fromJsonArray(json: Uint8Array): SortedWords {
    return new SortedWords(Buffer.from(json.buffer, json.byteOffset, json.byteLength));
  }

  has(word: string): boolean {
    const target = Buffer.from(word, "utf8");
    // Every word starting before lo sorts before the target; every word starting at or after hi, after it.
    let lo = 0;
    let hi = this.bytes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = this.wordStartFrom(mid);
      if (start < 0 || start >= hi) {
        hi = mid;
        continue;
      }
      const end = this.bytes.indexOf(QUOTE, start);
      // compare() orders the list's word against the target: below it, look right of it.
      const order = this.bytes.compare(target, 0, target.length, start, end);
      if (order === 0) return true;
      if (order < 0) lo = end + 1;
      // No word starts between mid and this one: the target's, if any, starts before mid.
      else hi = mid;
    }
    return false;
  }

  /** Where the first word whose text starts at or after `at` begins; -1 when none does. */
  private wordStartFrom(at: number): number {
    let quote = this.bytes.indexOf(QUOTE, Math.max(at - 1, 0));
    while (quote >= 0 && !this.opens(quote)) quote = this.bytes.indexOf(QUOTE, quote + 1);
    return quote < 0 ? -1 : quote + 1;
  }

  /** A quote opens a word when what comes before it, white space aside, is `[` or `,`. */
  private opens(quote: number): boolean {
    let i = quote - 1;
    while (i >= 0 && (this.bytes[i] === 0x20 || this.bytes[i] === 0x0a || this.bytes[i] === 0x0d || this.bytes[i] === 0x09)) i--;
    return i >= 0 && (this.bytes[i] === OPEN_BRACKET || this.bytes[i] === COMMA);
  }
}

/**
 * Evidence from document counts and a word list (loaded only when asked). A word's answer from
 * the list is kept for the evidence's window: the same halves ("the", "and") are asked of line
 * end after line end, and each lookup is a binary search in 3.3 MB.
 */
export function evidenceFrom(sources: readonly WordCounts[], words?: () => WordList): WordEvidence {
  const count = (word: string) => sources.reduce((n, s) => n + s.count(word), 0);
  if (!words) return { count };
  const listed = new Map<string, boolean>();
  const isWord = (word: string) => {
    let known = listed.get(word);
    if (known === undefined) listed.set(word, (known = words().has(word)));
    return known;
  };
  return { count, isWord };
}
