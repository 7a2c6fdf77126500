/**
 * Right-to-left text (Hebrew, Arabic) in reading order. A PDF draws glyphs where they are seen:
 * a Hebrew line's words stand right to left, and a bracket opened in it is drawn mirrored. Runs
 * sorted by x give that visual order ("גולמי מקומי תוצר" for "תוצר מקומי גולמי", "(יהלומים ללא)"
 * for "(ללא יהלומים)"); the Unicode Bidirectional Algorithm (UAX #9) maps logical order to
 * visual order, and its inverse is applied here to each line.
 *
 * The algorithm is bidi-js (a conformant implementation of UAX #9, Unicode 13, no native code,
 * ES5, so it runs on Node 20 as on 24; used by pdf.js-based and WebGL text renderers): the
 * resolved embedding levels say which characters run right to left, and its mirroring table
 * which brackets turn.
 *
 * A line is read in its dominant direction (more right-to-left letters than left-to-right ones
 * makes it a right-to-left line). Visual to logical, for a right-to-left line: the whole line is
 * reversed, then each run that resolves to a left-to-right level (numbers, Latin words: "31.12.14"
 * stays "31.12.14") is reversed back, and brackets at right-to-left levels take their mirror
 * image. A left-to-right line reverses only its right-to-left runs.
 */
// bidi-js is a CommonJS module exporting its factory; its types declare an ES default export,
// which TypeScript's NodeNext resolution reads as the whole module: the factory is cast to its type.
import bidiExports, { type Bidi } from "bidi-js";

const bidi = (bidiExports as unknown as () => Bidi)();

/** Hebrew, Arabic, Syriac, Thaana, NKo and the other right-to-left blocks, and their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

export function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT.test(text);
}

/** More strong right-to-left characters than left-to-right ones. */
export function isRightToLeft(text: string): boolean {
  if (!hasRightToLeft(text)) return false;
  let rtl = 0;
  let ltr = 0;
  for (const ch of text) {
    const type = bidi.getBidiCharTypeName(ch);
    if (type === "R" || type === "AL") rtl++;
    else if (type === "L") ltr++;
  }
  return rtl > ltr;
}

/**
 * A run's text as drawn, left to right. pdf.js hands each text item over in logical order (it
 * reorders the item's characters by the algorithm, but leaves brackets as drawn, unmirrored);
 * lines are put together from items in visual order.
 */
export function drawnOrder(text: string): string {
  if (!hasRightToLeft(text)) return text;
  return drawnMemo.get(text, () => reorderedAsDrawn(text));
}

function reorderedAsDrawn(text: string): string {
  const chars = text.split("");
  for (const [start, end] of bidi.getReorderSegments(text, bidi.getEmbeddingLevels(text))) {
    const flipped = chars.slice(start, end + 1).reverse();
    chars.splice(start, flipped.length, ...flipped);
  }
  // Reversing code units turns a surrogate pair around: put each back.
  return chars.join("").replace(/([\uDC00-\uDFFF])([\uD800-\uDBFF])/g, "$2$1");
}

/**
 * A line put together left to right as drawn, in reading order. `mirror: false` leaves brackets
 * as drawn, as pdf.js does with its items (for a piece of an item cut off by position).
 */
export function readingOrder(visual: string, { mirror = true }: { mirror?: boolean } = {}): string {
  if (!hasRightToLeft(visual)) return visual;
  return (mirror ? readMemo : readUnmirroredMemo).get(visual, () => reorderedAsRead(visual, mirror));
}

function reorderedAsRead(visual: string, mirror: boolean): string {
  const rtl = isRightToLeft(visual);
  const direction = rtl ? "rtl" : "ltr";
  const chars = rtl ? [...visual].reverse() : [...visual];
  // In a right-to-left line, runs at left-to-right levels read left to right: reversed back.
  // In a left-to-right line, runs at right-to-left levels are reversed.
  const levels = levelsOf(chars, direction);
  const flips = (i: number) => (rtl ? levels[i]! % 2 === 0 : levels[i]! % 2 === 1);
  const logical: string[] = [];
  for (let i = 0; i < chars.length; ) {
    let j = i;
    while (j < chars.length && flips(j) === flips(i)) j++;
    const run = chars.slice(i, j);
    logical.push(...(flips(i) ? run.reverse() : run));
    i = j;
  }
  if (!mirror) return logical.join("");
  // A bracket drawn in a right-to-left run shows its mirror image: "(" drawn is ")" read.
  const read = levelsOf(logical, direction);
  return logical.map((ch, i) => (read[i]! % 2 === 1 ? (bidi.getMirroredCharacter(ch) ?? ch) : ch)).join("");
}

/**
 * The answers for a document's texts. A line's runs are joined again for every reading of its
 * page (with and without its rules) and for each table cell they fall in: on a Hebrew table
 * page each text was reordered nine times over, the algorithm a sixth of the page's time. Both
 * orders are functions of the text alone, so what is kept changes no answer. The extract stage
 * empties the memos as it starts a document (forgetReorderings), and past MEMO_TEXTS texts a
 * memo starts over: what is kept never grows with a document's length or the documents read.
 */
class TextMemo {
  private readonly answers = new Map<string, string>();

  get(text: string, make: () => string): string {
    let answer = this.answers.get(text);
    if (answer === undefined) {
      if (this.answers.size >= MEMO_TEXTS) this.answers.clear();
      this.answers.set(text, (answer = make()));
    }
    return answer;
  }

  clear(): void {
    this.answers.clear();
  }
}

const MEMO_TEXTS = 4096;
const drawnMemo = new TextMemo();
const readMemo = new TextMemo();
const readUnmirroredMemo = new TextMemo();

/** Empties the memos of reordered texts: a document starts without the last one's. */
export function forgetReorderings(): void {
  for (const memo of [drawnMemo, readMemo, readUnmirroredMemo]) memo.clear();
}

/** The resolved embedding level of each character (bidi-js counts UTF-16 code units). */
function levelsOf(chars: readonly string[], direction: "rtl" | "ltr"): number[] {
  const { levels } = bidi.getEmbeddingLevels(chars.join(""), direction);
  const out: number[] = [];
  let at = 0;
  for (const ch of chars) {
    out.push(levels[at]!);
    at += ch.length;
  }
  return out;
}
