/**
 * What the documents say about how words are written: counts of every word form in the text
 * (hyphenated compounds as one form), taken line by line so that the line-end breaks being
 * decided never count as evidence for themselves; and an English word list for English text.
 */
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

  /**
   * Adds another document's counts. New words stop being added at `maxWords`, so the run's
   * evidence cannot grow with a night of thousands of documents; words already known keep counting.
   */
  merge(other: WordCounts, maxWords = Infinity): void {
    for (const [w, n] of other.counts) {
      const known = this.counts.get(w);
      if (known !== undefined) this.counts.set(w, known + n);
      else if (this.counts.size < maxWords) this.counts.set(w, n);
    }
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

let englishWords: Set<string> | undefined;

/**
 * The ~275,000 words of an-array-of-english-words, loaded the first time a decision needs it:
 * parsing and indexing them costs ~100 ms of CPU, more than extracting a short document, so a
 * document without a line-end hyphen to decide never pays for it.
 */
export function englishWordList(): Set<string> {
  englishWords ??= new Set(createRequire(import.meta.url)("an-array-of-english-words") as string[]);
  return englishWords;
}

/** Evidence from document counts, the run's counts so far, and a word list (loaded only when asked). */
export function evidenceFrom(sources: readonly WordCounts[], words?: () => ReadonlySet<string>): WordEvidence {
  return {
    count: (word) => sources.reduce((n, s) => n + s.count(word), 0),
    ...(words ? { isWord: (word: string) => words().has(word) } : {}),
  };
}
