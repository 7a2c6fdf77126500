/**
 * From pdf.js text items to runs in the page's reading frame.
 *
 * pdf.js reports each item's transform in PDF user space. A page whose text is drawn rotated
 * (a landscape page set with /Rotate and a rotated matrix, a scanner's sideways OCR layer)
 * would come out scrambled if read in user space, so the frame is the direction most of the
 * page's characters run in: every run is turned into that frame. Runs in another direction
 * (a vertical margin note, a rotated stamp) are kept apart, in their own frames, so they never
 * splice into the body's lines.
 */
import { textRun, type TextRun } from "../../core/records.js";
import { isBoldFontName, isMonospaceFontName, pictureGlyph } from "./font-traits.js";

/** The fields of a pdf.js `TextItem` that extraction reads. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  /** Set by markItems on tagged pages. */
  mcid?: string;
  artifact?: boolean;
  /** Made from a form field or an annotation (form-fields.ts). */
  form?: boolean;
}

/**
 * `textContent.styles` of pdf.js: `monospace` comes from the font's FixedPitch flag or name;
 * `fontName`, the font's own name, is added by pagestream's build of pdf.js (font-traits.ts).
 */
export type PdfFontStyles = Record<string, { fontFamily?: string; fontName?: string; vertical?: boolean } | undefined>;

export interface OrientedRuns {
  /** The angle of the page's body text, degrees counter-clockwise from user-space x. */
  angle: number;
  /**
   * A font that declares a fixed pitch is stretched word by word: the signature of the
   * "glyphless" font OCR engines draw their invisible text layer in.
   */
  stretchedFixedPitch: boolean;
  /** Runs in the body's direction, in its frame. */
  body: TextRun[];
  /** Runs in each other direction, each group in its own frame. */
  offAxis: TextRun[][];
  /** The angle of each `offAxis` group's frame, as `angle` is the body's. */
  offAxisAngles: number[];
}

/** Directions closer than this (degrees) are the same direction: a scan tilted a degree or two stays one, a 90° margin note does not (docs/extraction.md §1.1). */
const SAME_DIRECTION_DEGREES = 5;

interface Oriented {
  item: PdfTextItem;
  angle: number;
  fontSize: number;
  /** A whitespace item came just before it in the content: the producer drew a space there. */
  spaceBefore: boolean;
}

/**
 * The character cells (ems a character) seen so far of each font that declares a fixed pitch,
 * by pdf.js font name: kept over a document's pages (stage.ts), so that a font whose runs
 * disagreed on one page is not taken for fixed-pitch on a page where it has a single run.
 */
export type FontCells = Map<string, { min: number; max: number; sum: number; count: number }>;

export function orientRuns(items: readonly PdfTextItem[], styles: PdfFontStyles = {}, seenCells: FontCells = new Map()): OrientedRuns {
  const oriented: Oriented[] = [];
  let spaceBefore = false;
  for (const item of items) {
    // A whitespace-only item is dropped: the gap it fills is still there between the runs
    // around it. It is remembered, though, as a space the producer drew: a narrow italic space
    // before a roman word is narrower than the word-space threshold, and still a space.
    if (!item.str || !/\S/.test(item.str)) {
      spaceBefore ||= item.str?.length > 0;
      continue;
    }
    // Read by index: destructuring an array walks its iterator, for every item of the page.
    const t = item.transform;
    const a = t[0] ?? 1;
    const b = t[1] ?? 0;
    const c = t[2] ?? 0;
    const d = t[3] ?? 1;
    const fontSize = Math.hypot(c, d) || item.height || Math.hypot(a, b);
    if (!(fontSize > 0)) continue;
    oriented.push({ item, angle: normaliseAngle((Math.atan2(b, a) * 180) / Math.PI), fontSize, spaceBefore });
    spaceBefore = /\s$/.test(item.str);
  }

  // Group directions, weighted by characters, and take the heaviest as the body.
  const groups: { angle: number; chars: number; members: Oriented[] }[] = [];
  for (const o of oriented) {
    let group = groups.find((g) => angleDistance(g.angle, o.angle) <= SAME_DIRECTION_DEGREES);
    if (!group) {
      group = { angle: o.angle, chars: 0, members: [] };
      groups.push(group);
    }
    group.chars += o.item.str.length;
    group.members.push(o);
  }
  groups.sort((g, h) => h.chars - g.chars);
  const [bodyGroup, ...others] = groups;
  if (!bodyGroup) return { angle: 0, body: [], offAxis: [], offAxisAngles: [], stretchedFixedPitch: false };
  const monospaced = monospacedFonts(oriented, styles, seenCells);
  const stretchedFixedPitch = oriented.some((o) => styles[o.item.fontName]?.fontFamily === "monospace" && !monospaced.has(o.item.fontName));
  const bold = boldFonts(oriented, styles);
  const pictures = pictureFonts(styles);
  const frame = (g: (typeof groups)[number]) => {
    const angle = weightedMedianAngle(g.members);
    const rad = (angle * Math.PI) / 180;
    const turn = { angle, cos: Math.cos(rad), sin: Math.sin(rad) };
    return g.members.map((o) => toRun(o, turn, monospaced, bold, pictures));
  };
  return {
    angle: weightedMedianAngle(bodyGroup.members),
    stretchedFixedPitch,
    body: frame(bodyGroup),
    offAxis: others.map(frame),
    offAxisAngles: others.map((g) => weightedMedianAngle(g.members)),
  };
}

/**
 * The frame of a direction group is its characters' median angle, and each run keeps its own
 * slope within it as `skew`: an OCR layer of a scan tilted by a degree or two then reads as
 * straight lines, and lines keep together even where each one has its own tilt.
 */
function weightedMedianAngle(members: readonly Oriented[]): number {
  const sorted = [...members].sort((a, b) => signedAngle(a.angle) - signedAngle(b.angle));
  const total = sorted.reduce((n, o) => n + o.item.str.length, 0);
  let seen = 0;
  for (const o of sorted) {
    seen += o.item.str.length;
    if (seen * 2 >= total) return o.angle;
  }
  return sorted[0]?.angle ?? 0;
}

/**
 * Share of the mean character cell the runs of a fixed-pitch font may differ by. Real fixed-pitch
 * cells differ by rounding only; a glyphless OCR font stretched word by word, far more; and so do
 * the lines of a proportional font that declares a fixed pitch, by a few percent (each line's
 * average letter: a list's bullet font, in one document, set whole lines).
 */
const CELL_TOLERANCE = 0.01;

/**
 * Fonts whose runs really are set on a fixed grid. pdf.js flags fonts that declare a fixed
 * pitch, but OCR layers use a "glyphless" fixed-pitch font stretched word by word, which must
 * read as prose: a font counts as monospaced only when its character cells agree, on this page
 * and the document's pages before it (`seen`, which this adds the page's runs to).
 */
function monospacedFonts(oriented: readonly Oriented[], styles: PdfFontStyles, seen: FontCells): Set<string> {
  const onPage = new Set<string>();
  for (const o of oriented) {
    const style = styles[o.item.fontName];
    if (style?.fontFamily !== "monospace" && !isMonospaceFontName(style?.fontName)) continue;
    const chars = [...o.item.str].length;
    if (chars < 3) continue;
    const cell = Math.abs(o.item.width) / chars / o.fontSize;
    const cells = seen.get(o.item.fontName) ?? { min: cell, max: cell, sum: 0, count: 0 };
    cells.min = Math.min(cells.min, cell);
    cells.max = Math.max(cells.max, cell);
    cells.sum += cell;
    cells.count++;
    seen.set(o.item.fontName, cells);
    onPage.add(o.item.fontName);
  }
  const fonts = new Set<string>();
  for (const font of onPage) {
    const { min, max, sum, count } = seen.get(font)!;
    const mean = sum / count;
    if (max - mean <= CELL_TOLERANCE * mean && mean - min <= CELL_TOLERANCE * mean) fonts.add(font);
  }
  return fonts;
}

/**
 * Chinese, Japanese and Korean are set in full-width cells whatever the font, and their fonts
 * often declare a fixed pitch (Hiragino, MS Mincho): a run mostly of such characters is text,
 * never code.
 */
function mostlyFullWidth(text: string): boolean {
  const wide = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]/gu) ?? []).length;
  return wide * 2 > text.replace(/\s/gu, "").length;
}

/** For each picture font of the page (Wingdings and the like), what its unmapped glyphs stand for (font-traits.ts). */
type PictureFonts = Map<string, (text: string) => string | undefined>;

function pictureFonts(styles: PdfFontStyles): PictureFonts {
  const fonts: PictureFonts = new Map();
  for (const [name, style] of Object.entries(styles)) {
    if (pictureGlyph(style?.fontName, "!") !== undefined) fonts.set(name, (text) => pictureGlyph(style!.fontName, text));
  }
  return fonts;
}

/** The page's fonts whose names say they are bold (font-traits.ts). */
function boldFonts(oriented: readonly Oriented[], styles: PdfFontStyles): Set<string> {
  const fonts = new Set<string>();
  for (const o of oriented) if (isBoldFontName(styles[o.item.fontName]?.fontName)) fonts.add(o.item.fontName);
  return fonts;
}

/** A frame's angle, with its cosine and sine worked out once for all its runs. */
interface FrameTurn {
  angle: number;
  cos: number;
  sin: number;
}

function toRun(o: Oriented, { angle: frameAngle, cos, sin }: FrameTurn, monospaced: ReadonlySet<string>, bold: ReadonlySet<string>, pictures: PictureFonts): TextRun {
  const e = o.item.transform[4] ?? 0;
  const f = o.item.transform[5] ?? 0;
  const skew = Math.tan((signedAngle(o.angle - frameAngle) * Math.PI) / 180);
  return textRun({
    text: pictures.get(o.item.fontName)?.(o.item.str) ?? o.item.str,
    x: e * cos + f * sin,
    y: -e * sin + f * cos,
    width: Math.abs(o.item.width),
    fontSize: o.fontSize,
    fontName: o.item.fontName,
    monospace: monospaced.has(o.item.fontName) && !mostlyFullWidth(o.item.str) ? true : undefined,
    bold: bold.has(o.item.fontName) ? true : undefined,
    skew: Math.abs(skew) > 1e-4 ? skew : undefined,
    spaceBefore: o.spaceBefore ? true : undefined,
    mcid: o.item.mcid || undefined,
    artifact: o.item.artifact ? true : undefined,
    form: o.item.form ? true : undefined,
  });
}

function normaliseAngle(deg: number): number {
  const a = ((deg % 360) + 360) % 360;
  return Math.abs(a - 360) < 1e-6 ? 0 : a;
}

/** An angle in (-180, 180]. */
function signedAngle(deg: number): number {
  const a = normaliseAngle(deg);
  return a > 180 ? a - 360 : a;
}

function angleDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}
