/**
 * Pieces → chunks, in three steps.
 *
 * 1. Cores. From the first piece not yet in a chunk, take as many pieces as fit and end at the
 *    strongest boundary among them — the furthest one on a tie, so chunks are as full as that
 *    boundary allows — but never at one that would leave the chunk under min_tokens when a
 *    later one would not. A chunk that starts inside a split table puts the table's header row
 *    in front (`prefix`), so every part of the table reads on its own.
 * 2. Small cores. A core under min_tokens (the tail of a document, a short section between two
 *    long ones) merges into the core before or after it when the two fit together, or else
 *    takes pieces from the end of the core before it.
 * 3. Overlap. Each chunk after the first starts with up to overlap_tokens of the text before
 *    it: from a sentence, paragraph or table-row start when that keeps at least half of the
 *    window, else from a word start. A chunk that carries a table header carries no overlap.
 *
 * Piece counts are estimates (BPE does not add up exactly where two texts meet), so every
 * chunk is counted again whole and shortened when the count says so: no chunk ever exceeds
 * max_tokens by the tokenizer that names it.
 */
import { nextWordStart, sentenceStarts } from "./boundaries.js";
import type { Piece } from "./pieces.js";
import type { Tokenizer } from "./tokenizer.js";

export interface ChunkLimits {
  maxTokens: number;
  overlapTokens: number;
  minTokens: number;
}

export interface PackedChunk {
  /** Offsets into the document text of the chunk's text, overlap included (end exclusive). */
  start: number;
  end: number;
  /** Where the chunk's own text starts, after the overlap. */
  coreStart: number;
  prefix: string;
  /** `prefix` + the document text from `start` to `end`. */
  text: string;
  /** Tokens in `text`, counted whole. */
  tokens: number;
}

/** Pieces `first`…`last` (inclusive), with the header row put in front when it starts inside a table. */
interface Core {
  first: number;
  last: number;
  prefix: string;
}

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);
const PARAGRAPH_BREAK = /\n[^\S\n]*\n\s*/g;

/**
 * `rowStarts`: where the rows of tables and the lines of code listings start, ascending; an
 * overlap taken from a table or listing starts at one of them rather than mid-row.
 */
export function packChunks(text: string, pieces: readonly Piece[], tokenizer: Tokenizer, limits: ChunkLimits, rowStarts: readonly number[] = []): PackedChunk[] {
  if (pieces.length === 0) return [];
  const n = pieces.length;
  const count = (s: string) => tokenizer.count(s);
  /** Room for a core: the overlap is added later, a table header instead of it. */
  const budget = (prefix: string) => (prefix ? limits.maxTokens : limits.maxTokens - limits.overlapTokens);
  const prefixAt = (i: number) => {
    const header = pieces[i]!.header;
    return header ? text.slice(header.start, header.end) + "\n" : "";
  };
  const coreText = (core: Core) => core.prefix + text.slice(pieces[core.first]!.start, pieces[core.last]!.end);
  const fits = (core: Core) => count(coreText(core)) <= budget(core.prefix);

  // Estimated tokens of pieces i…j: their own counts, plus one token for a line break between two.
  const joinCost = pieces.map((p, i) => (i > 0 && text.slice(pieces[i - 1]!.end, p.start).includes("\n") ? 1 : 0));
  const running = [0];
  for (let i = 0; i < n; i++) running.push(running[i]! + pieces[i]!.tokens + joinCost[i]!);
  const estimate = (i: number, j: number) => running[j + 1]! - running[i]! - joinCost[i]!;
  const cutAfter = (j: number) => (j + 1 < n ? pieces[j + 1]!.cut : Infinity);

  /** The best end for a core starting at i among pieces i…k. */
  const bestEnd = (i: number, k: number) => {
    const eligible = (j: number) => estimate(i, j) >= limits.minTokens;
    const anyEligible = eligible(k);
    let best = k;
    for (let j = k; j >= i; j--) {
      if (anyEligible && !eligible(j)) break;
      if (cutAfter(j) > cutAfter(best)) best = j;
    }
    return best;
  };

  // 1. Cores.
  const cores: Core[] = [];
  for (let i = 0; i < n; ) {
    let prefix = prefixAt(i);
    if (prefix && count(prefix) + pieces[i]!.tokens > limits.maxTokens) prefix = "";
    const room = budget(prefix) - (prefix ? count(prefix) : 0);
    let k = i;
    while (k + 1 < n && estimate(i, k + 1) <= room) k++;
    let core: Core = { first: i, last: bestEnd(i, k), prefix };
    while (core.last > i && !fits(core)) core = { ...core, last: bestEnd(i, core.last - 1) };
    cores.push(core);
    i = core.last + 1;
  }

  // 2. Small cores.
  const small = (core: Core) => estimate(core.first, core.last) < limits.minTokens;
  for (let c = 0; c < cores.length; c++) {
    const core = cores[c]!;
    if (!small(core)) continue;
    const before = cores[c - 1];
    const after = cores[c + 1];
    const withBefore = before && { first: before.first, last: core.last, prefix: before.prefix };
    const withAfter = after && { first: core.first, last: after.last, prefix: core.prefix };
    if (withBefore && fits(withBefore)) {
      cores.splice(c - 1, 2, withBefore);
      c -= 2; // look at the merged core again
    } else if (withAfter && fits(withAfter)) {
      cores.splice(c, 2, withAfter);
      c -= 1;
    } else if (before) {
      const split = rebalance(before, core);
      if (split) cores.splice(c - 1, 2, ...split);
    }
  }
  /** Moves the end of `before` into `core` so both reach min_tokens, at the strongest boundary that allows it. */
  function rebalance(before: Core, core: Core): [Core, Core] | undefined {
    let best: number | undefined;
    for (let p = before.first + 1; p <= before.last; p++) {
      const prefix = prefixAt(p);
      const enough = estimate(p, core.last) >= limits.minTokens && estimate(before.first, p - 1) >= limits.minTokens;
      if (!enough || estimate(p, core.last) + (prefix ? count(prefix) : 0) > budget(prefix)) continue;
      if (best === undefined || pieces[p]!.cut >= pieces[best]!.cut) best = p;
    }
    if (best === undefined) return undefined;
    const split: [Core, Core] = [
      { ...before, last: best - 1 },
      { first: best, last: core.last, prefix: prefixAt(best) },
    ];
    return fits(split[1]) ? split : undefined;
  }

  // 3. Overlap, and the final count.
  return cores.map((core, c) => {
    const coreStart = pieces[core.first]!.start;
    const end = pieces[core.last]!.end;
    const before = cores[c - 1];
    let start = coreStart;
    if (before && !core.prefix && limits.overlapTokens > 0) {
      start = overlapStart(pieces[before.first]!.start, pieces[before.last]!.end, coreStart);
      while (start < coreStart && count(text.slice(start, end)) > limits.maxTokens) {
        start = nextWordStart(text, start, coreStart);
      }
    }
    const chunkText = core.prefix + text.slice(start, end);
    return { start, end, coreStart, prefix: core.prefix, text: chunkText, tokens: count(chunkText) };
  });

  /** Where the overlap taken from the core `[from, to)` starts, for a chunk whose own text starts at `coreStart`. */
  function overlapStart(from: number, to: number, coreStart: number): number {
    const before = text.slice(from, to);
    const tokens = tokenizer.encode(before);
    let start = -1;
    for (let take = Math.min(limits.overlapTokens, tokens.length); take > 0 && start < 0; take--) {
      const tail = tokenizer.decode(tokens.slice(tokens.length - take));
      // A tail that starts inside a multi-byte character does not decode to a suffix: take fewer.
      if (before.endsWith(tail)) start = to - tail.length;
    }
    if (start < 0) return coreStart;
    const startsWord = (p: number) => !isSpace(text[p]) && (p === from || isSpace(text[p - 1]));
    if (!startsWord(start)) {
      // The token window ends inside a word: take the whole word when it fits the window
      // (token and word boundaries disagree on emoji and unusual scripts), else the next one.
      let wordStart = start;
      while (wordStart > from && !isSpace(text[wordStart - 1])) wordStart--;
      start = count(text.slice(wordStart, to)) <= limits.overlapTokens ? wordStart : nextWordStart(text, start, to);
    }
    while (start < to && count(text.slice(start, to)) > limits.overlapTokens) start = nextWordStart(text, start, to);
    if (start >= to) return coreStart;
    // A sentence, paragraph or row start is a cleaner place to begin, if it keeps half the window.
    const half = start + Math.floor((to - start) / 2);
    const lookBehind = Math.max(from, start - 32);
    const candidates = [...sentenceStarts(text, lookBehind, to), ...paragraphStarts(lookBehind, to), ...rowStarts].filter((p) => p >= start && p <= half);
    return candidates.length > 0 ? Math.min(...candidates) : start;
  }

  function paragraphStarts(from: number, to: number): number[] {
    const starts: number[] = [];
    PARAGRAPH_BREAK.lastIndex = from;
    for (let m = PARAGRAPH_BREAK.exec(text); m && m.index < to; m = PARAGRAPH_BREAK.exec(text)) {
      const p = m.index + m[0].length;
      if (p < to) starts.push(p);
    }
    return starts;
  }
}
