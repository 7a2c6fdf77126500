/**
 * Where a hit's words are on a drawn page. The archive says where the hit's chunk stands (its
 * boxes: whole column pieces, coarse); pdf.js's text content says where every run of text is. The
 * matched strings are looked for in the runs inside the chunk's boxes, read in order as one text,
 * and each one found becomes a rectangle per run it covers. Pure geometry, no pdf.js and no DOM:
 * runs come in already placed on the page (see `placeRun`).
 *
 * Coordinates are fractions of the displayed page (0–1 from its top-left corner, rotation
 * applied), so a mark stays on its words at any zoom.
 */

/** A rectangle on the displayed page, in fractions of its width and height. */
export interface PageRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A run of text on the page: its characters and where its baseline runs, in page points. */
export interface PlacedRun {
  text: string;
  /** Start of the baseline. */
  x: number;
  y: number;
  /** Along the baseline, the whole run (points). */
  dx: number;
  dy: number;
  /** From the baseline up to the top of the letters (points). */
  ux: number;
  uy: number;
  /**
   * Where each character starts along the run, as a fraction of its advance (one more entry than
   * characters, the last 1); absent: characters taken as equally wide.
   */
  stops?: number[];
}

/**
 * A pdf.js text item placed on the page: `m` is the item's transform already multiplied by the
 * viewport's at scale 1 (`Util.transform(viewport.transform, item.transform)`), `width` its
 * advance in page points. Works for any rotation: the baseline goes along m's first column.
 */
export function placeRun(text: string, m: readonly number[], width: number, charWidth?: (char: string) => number): PlacedRun {
  const [a, b, c, d, e, f] = m as [number, number, number, number, number, number];
  const along = Math.hypot(a, b) || 1;
  // (c, d) is the text's own "up" on the page, its length the font's size.
  const run: PlacedRun = { text, x: e, y: f, dx: (a / along) * width, dy: (b / along) * width, ux: c, uy: d };
  if (charWidth) {
    const widths = [...text].flatMap((ch) => (ch.length === 2 ? [charWidth(ch), 0] : [charWidth(ch)]));
    const total = widths.reduce((sum, w) => sum + w, 0);
    if (total > 0) {
      let at = 0;
      run.stops = [0, ...widths.map((w) => (at += w) / total)];
    }
  }
  return run;
}

/** A box of the archive's, in points from the displayed page's top-left corner. */
export interface PointBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Points a run may stick out of a chunk's box and still count as in it (boxes are measured from glyph origins). */
const BOX_SLACK = 3;
/** Below the baseline, the share of the letters' height descenders take. */
const DESCENT = 0.25;

/**
 * The rectangles of every occurrence of `phrases` (matched strings, any case, white space
 * collapsed) in the runs whose middle lies inside one of `boxes` (or in all runs when there are
 * no boxes), on a page `width` × `height` points.
 */
export function findPhrases(runs: readonly PlacedRun[], phrases: readonly string[], boxes: readonly PointBox[], width: number, height: number): PageRect[] {
  const inside = runs.filter((r) => r.text.trim() && (boxes.length === 0 || boxes.some((b) => contains(b, r.x + r.dx / 2 + r.ux / 2, r.y + r.dy / 2 + r.uy / 2))));
  // The runs as one text (a space between runs unless one already ends or starts with one), and
  // for each of its characters the run and the character it came from.
  let text = "";
  const from: { run: number; char: number }[] = [];
  inside.forEach((run, i) => {
    if (text && !/\s$/.test(text) && !/^\s/.test(run.text)) {
      text += " ";
      from.push({ run: i, char: -1 });
    }
    for (let c = 0; c < run.text.length; c++) {
      text += run.text[c]!;
      from.push({ run: i, char: c });
    }
  });
  const { folded, at } = foldSpaces(text.toLowerCase());
  const rects: PageRect[] = [];
  for (const phrase of new Set(phrases.map((p) => p.toLowerCase().replace(/\s+/g, " ").trim()).filter(Boolean))) {
    for (let i = folded.indexOf(phrase); i >= 0; i = folded.indexOf(phrase, i + phrase.length)) {
      const chars = from.slice(at[i]!, at[i + phrase.length - 1]! + 1).filter((f) => f.char >= 0);
      for (const [run, span] of spansByRun(chars)) rects.push(rectOf(inside[run]!, span[0], span[1] + 1, width, height));
    }
  }
  return rects.sort((a, b) => a.top - b.top || a.left - b.left);
}

/** A box of the archive's as fractions of the page. */
export function boxRect(box: PointBox, width: number, height: number): PageRect {
  return { left: box.x0 / width, top: box.y0 / height, width: (box.x1 - box.x0) / width, height: (box.y1 - box.y0) / height };
}

function contains(box: PointBox, x: number, y: number): boolean {
  return x >= box.x0 - BOX_SLACK && x <= box.x1 + BOX_SLACK && y >= box.y0 - BOX_SLACK && y <= box.y1 + BOX_SLACK;
}

/** White space runs folded to one space; `at[i]` is where folded character i was in the text. */
function foldSpaces(text: string): { folded: string; at: number[] } {
  let folded = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const space = /\s/.test(text[i]!);
    if (space && folded.endsWith(" ")) continue;
    folded += space ? " " : text[i]!;
    at.push(i);
  }
  return { folded, at };
}

/** The first and last character each run gives a found phrase. */
function spansByRun(chars: readonly { run: number; char: number }[]): Map<number, [number, number]> {
  const spans = new Map<number, [number, number]>();
  for (const { run, char } of chars) {
    const span = spans.get(run);
    if (span) span[1] = Math.max(span[1], char);
    else spans.set(run, [char, char]);
  }
  return spans;
}

/** Characters [from, to) of a run as a rectangle on the page. */
function rectOf(run: PlacedRun, from: number, to: number, width: number, height: number): PageRect {
  const n = run.text.length || 1;
  const s = run.stops?.[from] ?? from / n;
  const e = run.stops?.[to] ?? to / n;
  const corners = [
    [run.x + run.dx * s - run.ux * DESCENT, run.y + run.dy * s - run.uy * DESCENT],
    [run.x + run.dx * e - run.ux * DESCENT, run.y + run.dy * e - run.uy * DESCENT],
    [run.x + run.dx * s + run.ux, run.y + run.dy * s + run.uy],
    [run.x + run.dx * e + run.ux, run.y + run.dy * e + run.uy],
  ];
  const xs = corners.map((c) => c[0]!);
  const ys = corners.map((c) => c[1]!);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left: left / width, top: top / height, width: (Math.max(...xs) - left) / width, height: (Math.max(...ys) - top) / height };
}
