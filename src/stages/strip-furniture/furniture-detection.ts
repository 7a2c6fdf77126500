/**
 * Running headers and footers (docs/extraction.md §9): lines that recur at the top or bottom of many pages.
 *
 * A line is a candidate when it is among the outermost lines of its page and inside the top or
 * bottom band of the document's text area. It is furniture when a line with the same text —
 * digits and roman numerals normalised, so "Page 3 of 12" matches "Page 4 of 12" — stands at
 * nearly the same height on enough pages near it. Comparing with neighbours (not the whole
 * document) catches headers that change per chapter, and a window of two pages each way catches
 * alternating left and right headers. The furniture must also stand apart from the body by a
 * wider gap than the body's line gap, so a repeated first line of body text (a formula every
 * page starts with, a repeated table header) is never taken. A printed page number needs no
 * repeat (page-number-line.ts): a one-page invoice's "Page 1/1" is furniture too. Lines a tagged
 * PDF declares as /Artifact are furniture by declaration.
 */
import type { Line, PageRecord } from "../../core/records.js";
import { bodyFontSize, maxOf, median, minOf } from "../../text/text-geometry.js";
import { isPageNumberLine, PAGE_WORD, pagePhraseNumber, ROMAN } from "./page-number-line.js";

export interface FurnitureOptions {
  /** Share of the page height, at the top and at the bottom of the text area, where furniture stands. */
  bandRatio: number;
  /** Outermost lines of a page considered in each band. */
  maxLinesPerBand: number;
  /** Pages before and after a page that are compared with it. */
  windowPages: number;
  /** Pages (itself included) on which a line must stand to be furniture. */
  minPages: number;
  /** The gap between furniture and body must be at least this × the body's line gap. */
  isolationRatio: number;
}

export interface PageFurniture {
  /** Indices of the page's lines that are furniture. */
  remove: Set<number>;
  header: string[];
  footer: string[];
  pageLabel?: string;
}

type Band = "top" | "bottom";

interface Candidate {
  page: number;
  index: number;
  band: Band;
  line: Line;
  key: string;
  /** The line was read by OCR: its font size is an estimate from word boxes, not the PDF's. */
  ocr: boolean;
}

/**
 * The text a repeat is recognised by: digits and roman numerals stand for any number, and word
 * spaces do not count (OCR drops or adds them from page to page: "Page 1 of3", "Page 2 of 3").
 */
export function furnitureKey(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\d+/g, "#")
    .split(/\s+/)
    .map((token) => {
      const letters = token.replace(/[^\p{L}]/gu, "");
      const oneCase = token === token.toLowerCase() || token === token.toUpperCase();
      return letters && oneCase && ROMAN.test(letters) ? token.replace(letters, "#") : token;
    })
    .join("");
}

export function detectFurniture(pages: readonly PageRecord[], options: FurnitureOptions): PageFurniture[] {
  const result: PageFurniture[] = pages.map(() => ({ remove: new Set<number>(), header: [], footer: [] }));
  // The text area: where the lines set along the page's axis reach, over every page (read in a loop: a window is up to a thousand pages).
  let top = -Infinity;
  let bottom = Infinity;
  let lines = 0;
  for (const page of pages) {
    for (const l of page.lines) {
      if (l.offAxis) continue;
      top = Math.max(top, l.y + l.fontSize);
      bottom = Math.min(bottom, l.y);
      lines++;
    }
  }
  if (lines === 0) return result;
  const height = median(pages.map((p) => p.height).filter((h) => h > 0)) || top - bottom;
  const candidates = pages.map((page, p) => bandCandidates(page, p, top - options.bandRatio * height, bottom + options.bandRatio * height, options));

  const matched = candidates.map((list) =>
    list.filter((c) => {
      let pagesWithIt = 1;
      for (let q = Math.max(0, c.page - options.windowPages); q <= Math.min(pages.length - 1, c.page + options.windowPages); q++) {
        if (q !== c.page && candidates[q]!.some((d) => sameFurniture(c, d))) pagesWithIt++;
      }
      return pagesWithIt >= options.minPages;
    }),
  );

  // Each page's baseline steps, measured once: the document's pitch and each of its bands ask for them.
  const steps = pages.map((page) => baselineSteps(page.lines));
  const documentPitch = median(steps.flat());
  pages.forEach((page, p) => {
    const chosen = new Map<number, Band>();
    const bodySize = bodyFontSize(page.lines);
    for (const band of ["top", "bottom"] as const) {
      const inBand = candidates[p]!.filter((c) => c.band === band);
      const evidence = inBand.filter((c) => matched[p]!.includes(c) || (outermost(c, inBand) && isPageNumberLine(c.line.text, c.line.fontSize, bodySize)));
      for (const index of isolatedFromBody(page, band, new Set(evidence.map((c) => c.index)), options, steps[p]!, documentPitch)) chosen.set(index, band);
    }
    // Declared furniture needs no evidence.
    const middle = (Math.max(maxOf(page.lines, (l) => l.y), 0) + Math.min(minOf(page.lines, (l) => l.y), 0)) / 2;
    page.lines.forEach((line, i) => {
      if (line.role === "Artifact" && !chosen.has(i)) chosen.set(i, line.y >= middle ? "top" : "bottom");
    });
    const out = result[p]!;
    for (const [i, band] of [...chosen].sort((a, b) => a[0] - b[0])) {
      out.remove.add(i);
      (band === "top" ? out.header : out.footer).push(page.lines[i]!.text);
    }
    const label = pageLabel(
      [...chosen.keys()].map((i) => page.lines[i]!),
      neighbourCandidates(candidates, p, options.windowPages),
    );
    if (label) out.pageLabel = label;
  });
  return result;
}

function bandCandidates(page: PageRecord, p: number, topEdge: number, bottomEdge: number, options: FurnitureOptions): Candidate[] {
  const order = page.lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => !line.offAxis)
    .sort((a, b) => b.line.y - a.line.y);
  const make = (band: Band) => ({ line, index }: { line: Line; index: number }): Candidate => ({ page: p, index, band, line, key: furnitureKey(line.text), ocr: page.source === "ocr" });
  const topLines = order.slice(0, options.maxLinesPerBand).filter(({ line }) => line.y + line.fontSize >= topEdge).map(make("top"));
  const bottomLines = order
    .slice(-options.maxLinesPerBand)
    .filter(({ line, index }) => line.y <= bottomEdge && !topLines.some((t) => t.index === index))
    .map(make("bottom"));
  return [...topLines, ...bottomLines];
}

function sameFurniture(a: Candidate, b: Candidate): boolean {
  if (a.band !== b.band || a.key !== b.key || a.key === "") return false;
  const size = Math.max(a.line.fontSize, b.line.fontSize);
  // Within one and a half lines: pages paginated from flowing text (html2ps, plain-text RFCs) place
  // the footer a line higher or lower from page to page. Sizes within a fifth of the larger: a 9 pt
  // header and an 18 pt heading with the same words are not the same line.
  // An OCR line's size is guessed from a few word boxes, and a short footer's guess can be a
  // third off ("Page 2 of 3" at 8 pt on one page, 15 pt on the next): its place has to do.
  return Math.abs(a.line.y - b.line.y) <= 1.5 * size && (a.ocr || b.ocr || Math.abs(a.line.fontSize - b.line.fontSize) <= 0.25 * size);
}

/**
 * Furniture stands apart from the body. Walking in from the page edge over the repeated lines,
 * those followed by a gap wider than the body's line gap are furniture; a repeated line set
 * like the body (a formula every page opens with, a repeated table header) is not, and neither
 * is anything inside it. The body's line gap is the page's own or the document's, whichever is
 * smaller: a chapter's opening page with four lines on it has no line gap of its own to speak of.
 */
function isolatedFromBody(page: PageRecord, band: Band, repeated: ReadonlySet<number>, options: FurnitureOptions, pageSteps: readonly number[], documentPitch: number): number[] {
  if (repeated.size === 0) return [];
  const order = page.lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => !line.offAxis)
    .sort((a, b) => (band === "top" ? b.line.y - a.line.y : a.line.y - b.line.y));
  // The usual baseline step; 12 pt (a line of 10 pt text) when there is no second line to measure.
  const steps = [median(pageSteps), documentPitch].filter((step) => step > 0);
  const pitch = steps.length ? Math.min(...steps) : 12;
  const accepted: number[] = [];
  const tentative: number[] = [];
  for (let i = 0; i < order.length && repeated.has(order[i]!.index); i++) {
    tentative.push(order[i]!.index);
    const next = order[i + 1];
    if (!next || Math.abs(order[i]!.line.y - next.line.y) >= options.isolationRatio * pitch) accepted.push(...tentative.splice(0));
  }
  return accepted;
}

/**
 * The line stands at the page's edge, nothing beyond it (beside it, a footer's other half may stand
 * on the same baseline): a page number is the last thing on a page, below any footnote.
 */
function outermost(c: Candidate, band: readonly Candidate[]): boolean {
  const edge = c.band === "top" ? Math.max(...band.map((d) => d.line.y)) : Math.min(...band.map((d) => d.line.y));
  return Math.abs(c.line.y - edge) <= 0.5 * c.line.fontSize;
}

/** The distances between a page's consecutive baselines, lines on one baseline counted once. */
function baselineSteps(lines: readonly Line[]): number[] {
  const ys = lines.filter((l) => !l.offAxis).map((l) => l.y).sort((a, b) => b - a);
  return ys.slice(1).map((y, i) => ys[i]! - y).filter((g) => g > 0);
}

function neighbourCandidates(candidates: readonly Candidate[][], p: number, window: number): Candidate[] {
  const out: Candidate[] = [];
  for (let q = Math.max(0, p - window); q <= Math.min(candidates.length - 1, p + window); q++) {
    if (q !== p) out.push(...candidates[q]!);
  }
  return out;
}

/**
 * The printed page number among a page's furniture: a number (or roman numeral) that differs
 * from the one in the same place on neighbouring pages, so "Annual Report 2025" gives no label
 * and "Page 3 of 5" gives "3".
 */
function pageLabel(lines: readonly Line[], neighbours: readonly Candidate[]): string | undefined {
  for (const line of lines) {
    const key = furnitureKey(line.text);
    if (!key.includes("#")) continue;
    const tokens = numberTokens(line.text);
    for (const other of neighbours) {
      if (other.key !== key) continue;
      const theirs = numberTokens(other.line.text);
      const i = tokens.findIndex((t, k) => theirs[k] !== undefined && theirs[k] !== t);
      if (i >= 0) return tokens[i];
    }
  }
  // A lone number, or "Page 7", with nothing to compare with.
  for (const line of lines) {
    const words = line.text.replace(/[–—-]/g, " ").trim().split(/\s+/);
    const numbers = words.filter((w) => /^\d+$/.test(w) || ROMAN.test(w));
    if (numbers.length === 1 && words.every((w) => numbers.includes(w) || PAGE_WORD.test(w))) return numbers[0];
    const phrased = pagePhraseNumber(line.text);
    if (phrased !== undefined) return phrased;
  }
  return undefined;
}

function numberTokens(text: string): string[] {
  return text.normalize("NFKC").match(/\d+|\b[ivxlcdmIVXLCDM]+\b/g)?.filter((t) => /^\d+$/.test(t) || ROMAN.test(t)) ?? [];
}

