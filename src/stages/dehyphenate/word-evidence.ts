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

export class WordCounts {
  private readonly counts = new Map<string, number>();

  addPages(pages: readonly PageRecord[]): this {
    for (const page of pages) for (const line of page.lines) this.addText(line.text);
    return this;
  }

  addText(text: string): void {
    for (const match of text.toLowerCase().matchAll(WORD)) {
      const word = match[0].replace(/[\u2010\u2011]/g, "-");
      this.counts.set(word, (this.counts.get(word) ?? 0) + 1);
    }
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

/**
 * A sorted list of words looked up where it lies, in the bytes of its JSON file: one pass finds
 * where each word starts and ends, a lookup is a binary search comparing bytes. Loading takes a
 * few milliseconds; JSON.parse and a Set of the same 275,000 words took ~270 ms of CPU, more
 * than extracting a short document.
 */
export class SortedWords implements WordList {
  private constructor(
    private readonly bytes: Buffer,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
  ) {}

  /** From a JSON array of plain words (no quotes or escapes in them), sorted by their UTF-8 bytes. */
  static fromJsonArray(json: Uint8Array): SortedWords {
    const bytes = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
    // A word takes at least three bytes with its quotes: room for every one, trimmed after.
    const starts = new Uint32Array(Math.ceil(bytes.length / 3));
    const ends = new Uint32Array(starts.length);
    let count = 0;
    let open = false;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== QUOTE) continue;
      if (open) ends[count++] = i;
      else starts[count] = i + 1;
      open = !open;
    }
    return new SortedWords(bytes, starts.slice(0, count), ends.slice(0, count));
  }

  has(word: string): boolean {
    const target = Buffer.from(word, "utf8");
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.bytes.compare(target, 0, target.length, this.starts[mid], this.ends[mid]);
      if (order === 0) return true;
      // compare() orders the list's word against the target: below it, look right.
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }
}

/** Evidence from document counts, the run's counts so far, and a word list (loaded only when asked). */
export function evidenceFrom(sources: readonly WordCounts[], words?: () => WordList): WordEvidence {
  return {
    count: (word) => sources.reduce((n, s) => n + s.count(word), 0),
    ...(words ? { isWord: (word: string) => words().has(word) } : {}),
  };
}
