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
import type { TextRun } from "../../core/records.js";

/** The fields of a pdf.js `TextItem` that extraction reads. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

/** `textContent.styles` of pdf.js: `monospace` comes from the font's FixedPitch flag or name. */
export type PdfFontStyles = Record<string, { fontFamily?: string; vertical?: boolean } | undefined>;

export interface OrientedRuns {
  /** The angle of the page's body text, degrees counter-clockwise from user-space x. */
  angle: number;
  /** Runs in the body's direction, in its frame. */
  body: TextRun[];
  /** Runs in each other direction, each group in its own frame. */
  offAxis: TextRun[][];
}

/** Directions closer than this (degrees) are the same direction. */
const SAME_DIRECTION_DEGREES = 5;

interface Oriented {
  item: PdfTextItem;
  angle: number;
  fontSize: number;
}

export function orientRuns(items: readonly PdfTextItem[], styles: PdfFontStyles = {}): OrientedRuns {
  const oriented: Oriented[] = [];
  for (const item of items) {
    // Whitespace-only items are pdf.js's own guesses at spaces: the gap they fill is still
    // there between the runs around them, and the word-space rule decides from it.
    if (!item.str || !/\S/.test(item.str)) continue;
    const [a = 1, b = 0, c = 0, d = 1] = item.transform;
    const fontSize = Math.hypot(c, d) || item.height || Math.hypot(a, b);
    if (!(fontSize > 0)) continue;
    oriented.push({ item, angle: normaliseAngle((Math.atan2(b, a) * 180) / Math.PI), fontSize });
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
  if (!bodyGroup) return { angle: 0, body: [], offAxis: [] };
  return {
    angle: bodyGroup.angle,
    body: bodyGroup.members.map((o) => toRun(o, bodyGroup.angle, styles)),
    offAxis: others.map((g) => g.members.map((o) => toRun(o, g.angle, styles))),
  };
}

function toRun(o: Oriented, frameAngle: number, styles: PdfFontStyles): TextRun {
  const [, , , , e = 0, f = 0] = o.item.transform;
  const rad = (frameAngle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const run: TextRun = {
    text: o.item.str,
    x: e * cos + f * sin,
    y: -e * sin + f * cos,
    width: Math.abs(o.item.width),
    fontSize: o.fontSize,
    fontName: o.item.fontName,
  };
  if (styles[o.item.fontName]?.fontFamily === "monospace") run.monospace = true;
  return run;
}

function normaliseAngle(deg: number): number {
  const a = ((deg % 360) + 360) % 360;
  return Math.abs(a - 360) < 1e-6 ? 0 : a;
}

function angleDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}
