/**
 * Landing on a hit: its chunk's boxes drawn lightly over the original page, the hit's matched
 * words strongly (found in pdf.js's text content inside those boxes: page-marks.ts), the page's
 * other matches faintly, and the strongest mark scrolled to the middle of the screen. Opened
 * without a hit (`?q=` alone), the matches of the page in the address are marked.
 */
import type { DocumentResponse, PageJson } from "../api-types.js";
import { boxRect, findPhrases } from "./page-marks.js";
import type { PageView } from "./page-view.js";
import type { PdfPages } from "./pdf-pages.js";

/** Pages marked when the address names no hit: the query's matched pages can be many. */
const MAX_MATCHED_PAGES = 20;

/** Marks the hit (or the matches) on the drawn pages; returns the mark to bring into view, if any. */
export async function markHit(pdf: PdfPages, views: ReadonlyMap<number, PageView>, doc: DocumentResponse, hashPage: number | undefined): Promise<HTMLElement | undefined> {
  const focus = doc.focus;
  const pageNumbers = focus
    ? [...new Set([...focus.boxes.map((b) => b.page), ...focus.ranges.map((r) => r.page)])].sort((a, b) => a - b)
    : doc.pages.filter((p) => p.matches.length > 0).map((p) => p.number).sort((a, b) => Number(b === hashPage) - Number(a === hashPage) || a - b).slice(0, MAX_MATCHED_PAGES);
  let target: HTMLElement | undefined;
  let fallback: HTMLElement | undefined;
  for (const number of pageNumbers) {
    const view = views.get(number);
    const page = doc.pages.find((p) => p.number === number);
    if (!view?.surface || !page) continue;
    const { runs, width, height } = await pdf.textRuns(number);
    const boxes = focus ? focus.boxes.filter((b) => b.page === number) : [];
    const ranges = focus ? focus.ranges.filter((r) => r.page === number) : [];
    const { current, other } = matchedStrings(page, focus ? ranges : undefined);
    const boxMarks = view.mark(boxes.map((b) => boxRect(b, width, height)), "box");
    view.mark(findPhrases(runs, other, [], width, height), "other");
    const words = view.mark(findPhrases(runs, current, boxes, width, height), "word");
    target ??= words[0];
    fallback ??= boxMarks[0];
  }
  return target ?? fallback;
}

/**
 * The page's matched strings: `current` those inside the hit's own text on the page (all of them
 * when no hit is named), `other` the rest.
 */
function matchedStrings(page: PageJson, ranges: readonly { start: number; end: number }[] | undefined): { current: string[]; other: string[] } {
  const current: string[] = [];
  const other: string[] = [];
  for (const [start, end] of page.matches) {
    const inHit = ranges === undefined || ranges.some((r) => start >= r.start && start < r.end);
    (inHit ? current : other).push(page.text.slice(start, end));
  }
  return { current, other: other.filter((o) => !current.some((c) => c.toLowerCase() === o.toLowerCase())) };
}
