/**
 * Hits as the page lists them: each document once, where its best hit ranks, with what else of
 * it matched; and no passage shown twice.
 *
 * Neighbouring chunks overlap by some tokens, so a match in the overlap is in both, and both
 * chunks are hits. A hit is told by the matches it holds, as offsets into its document's text
 * (`DocumentMatch`, from the same highlight() that marks the page); a hit that holds no match a
 * better one shown before it does not hold is a repeat and is left out. Pure: the archive's
 * reads come in as functions.
 */

/** A match in a document's text: [start, end) offsets into the whole text, and its page. */
export interface DocumentMatch {
  start: number;
  end: number;
  page: number;
}

export interface RankedHit {
  /** Null for a hit whose document row has no id (never grouped). */
  documentId: string | null;
  chunkId: string;
  matchPages: [number, number];
}

/** Where a chunk's own text stands in its document's text. */
export type ChunkSpan = { charStart: number; charEnd: number };

/**
 * A hit as shown. `recentre`: the hit shares matches with a hit shown before it (the passage in
 * their overlap), so its snippet is to be cut around this match of its own instead, or the
 * shared sentence would show twice.
 */
export interface ShownHit<H> {
  hit: H;
  recentre?: DocumentMatch;
}

export interface HitGroup<H> {
  documentId: string;
  /** The document's best hit first, then the next ones that show a match the first does not. */
  hits: ShownHit<H>[];
  /** The document's matches none of `hits` holds: how many, and on which pages. */
  more: { matches: number; pages: number[] };
}

/** The documents in the order of their best hit, each with its hits in rank order. */
export function documentsInRankOrder<H extends RankedHit>(ranked: readonly H[]): { documentId: string; hits: H[] }[] {
  const groups = new Map<string, { documentId: string; hits: H[] }>();
  for (const hit of ranked) {
    if (hit.documentId === null) continue;
    let group = groups.get(hit.documentId);
    if (!group) groups.set(hit.documentId, (group = { documentId: hit.documentId, hits: [] }));
    group.hits.push(hit);
  }
  return [...groups.values()];
}

/**
 * One document's hits as shown: the best, then up to `shown - 1` more that each bring a match not
 * shown yet, and a count of the matches left. Without offsets (an archive before schema 6), hits
 * cannot be told apart by their matches: every further hit counts as one more.
 */
export function documentGroup<H extends RankedHit>(hits: readonly H[], spanOf: (chunkId: string) => ChunkSpan | undefined, matches: readonly DocumentMatch[] | undefined, shown: number): HitGroup<H> {
  const first = hits[0]!;
  const known = matches !== undefined && hits.every((h) => spanOf(h.chunkId) !== undefined);
  if (!known) {
    const rest = hits.slice(shown);
    return { documentId: first.documentId ?? "", hits: hits.slice(0, shown).map((hit) => ({ hit })), more: { matches: rest.length, pages: pagesOf(rest.flatMap((h) => rangePages(h.matchPages))) } };
  }
  const shownMatches = new Set<DocumentMatch>();
  const kept: ShownHit<H>[] = [];
  for (const hit of hits) {
    if (kept.length >= shown) break;
    const next = shownOnce(hit, matchesIn(matches, spanOf(hit.chunkId)!), shownMatches);
    if (next) kept.push(next);
  }
  const left = matches.filter((m) => !shownMatches.has(m));
  return { documentId: first.documentId ?? "", hits: kept, more: { matches: left.length, pages: pagesOf(left.map((m) => m.page)) } };
}

/**
 * Hits of one document in rank order without repeats: a hit whose every match a better hit
 * already holds (the passage in two chunks' overlap) is left out. Hits whose place is unknown are kept.
 */
export function withoutRepeats<H extends RankedHit>(hits: readonly H[], spanOf: (chunkId: string) => ChunkSpan | undefined, matches: readonly DocumentMatch[] | undefined): ShownHit<H>[] {
  if (matches === undefined) return hits.map((hit) => ({ hit }));
  const seen = new Set<DocumentMatch>();
  return hits.flatMap((hit) => {
    const span = spanOf(hit.chunkId);
    if (!span) return [{ hit }];
    const next = shownOnce(hit, matchesIn(matches, span), seen);
    return next ? [next] : [];
  });
}

/**
 * The hit as shown after those whose matches are in `seen` (which it joins), or undefined when it
 * holds none of its own. The first hit is always shown.
 */
function shownOnce<H>(hit: H, own: readonly DocumentMatch[], seen: Set<DocumentMatch>): ShownHit<H> | undefined {
  const first = seen.size === 0;
  const fresh = own.filter((m) => !seen.has(m));
  if (!first && fresh.length === 0 && own.length > 0) return undefined;
  for (const m of own) seen.add(m);
  return !first && fresh.length > 0 && fresh.length < own.length ? { hit, recentre: fresh[0]! } : { hit };
}

/**
 * A snippet of a page's text around one match: about `chars` characters from a little before it,
 * cut at spaces, "…" where cut, white space collapsed, with every match in it at its offsets.
 */
export function snippetAt(text: string, matches: readonly [number, number][], at: number, chars = 160): { snippet: string; highlights: [number, number][] } {
  let start = Math.max(0, at - Math.floor(chars / 4));
  let end = Math.min(text.length, start + chars);
  if (start > 0) start = Math.max(start, text.indexOf(" ", start) + 1 || start);
  if (end < text.length) end = Math.max(at + 1, text.lastIndexOf(" ", end) > start ? text.lastIndexOf(" ", end) : end);
  let snippet = start > 0 ? "…" : "";
  const highlights: [number, number][] = [];
  const inside = matches.filter(([s, e]) => s >= start && e <= end).sort((a, b) => a[0] - b[0]);
  let open: number | undefined;
  for (let i = start; i < end; i++) {
    if (inside.some(([s]) => s === i)) open = snippet.length;
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (!snippet.endsWith(" ") && snippet.length > 0) snippet += " ";
    } else snippet += ch;
    const closing = inside.find(([, e]) => e === i + 1);
    if (closing && open !== undefined) {
      highlights.push([open, snippet.length]);
      open = undefined;
    }
  }
  return { snippet: snippet.trimEnd() + (end < text.length ? "…" : ""), highlights };
}

/** The matches that start inside a chunk's own text. */
function matchesIn(matches: readonly DocumentMatch[], span: ChunkSpan): DocumentMatch[] {
  return matches.filter((m) => m.start >= span.charStart && m.start < span.charEnd);
}

function rangePages([first, last]: [number, number]): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function pagesOf(pages: number[]): number[] {
  return [...new Set(pages)].sort((a, b) => a - b);
}
