/**
 * Page ranges as people write them: "3", "2-4", "1,3,7-9", "5-" (to the end), "-2" (up to 2).
 * docs/extraction.md §7.1: a range that runs past the end is clamped silently; a request none of whose pages
 * exist is a different answer from an empty page, and says how many pages there are.
 */
export interface PageSpan {
  from: number;
  /** Inclusive; Infinity for an open end. */
  to: number;
}

const SPAN = /^(\d*)\s*-\s*(\d*)$|^(\d+)$/;

/** Parses a range; throws with a sentence saying what is wrong. */
export function parsePageRange(spec: string): PageSpan[] {
  const spans: PageSpan[] = [];
  for (const raw of spec.split(",")) {
    const part = raw.trim();
    const m = SPAN.exec(part);
    if (!part || !m || (m[1] === "" && m[2] === "")) {
      throw new Error(`"${part}" is not a page or a range (write 3, 2-4, 5- or -2)`);
    }
    const from = m[3] ? Number(m[3]) : m[1] ? Number(m[1]) : 1;
    const to = m[3] ? Number(m[3]) : m[2] ? Number(m[2]) : Infinity;
    if (from < 1) throw new Error(`pages are numbered from 1, not ${from}`);
    if (to < from) throw new Error(`"${part}" ends before it starts`);
    spans.push({ from, to });
  }
  return spans;
}

/** The pages of a document with `pageCount` pages that the spans select, ascending and unique. */
export function selectPages(spans: readonly PageSpan[] | undefined, pageCount: number): number[] {
  if (!spans) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const selected = new Set<number>();
  for (const { from, to } of spans) {
    for (let p = from; p <= Math.min(to, pageCount); p++) selected.add(p);
  }
  return [...selected].sort((a, b) => a - b);
}
