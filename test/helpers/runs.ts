import type { TextRun } from "../../src/core/records.js";

/**
 * A run of Helvetica-like text at (x, y): its width is 0.5 × font size per character unless
 * given, so tests can place words with exact gaps.
 */
export function run(text: string, x: number, y: number, fontSize = 10, width?: number, extra: Partial<TextRun> = {}): TextRun {
  return { text, x, y, width: width ?? text.length * fontSize * 0.5, fontSize, fontName: "f1", ...extra };
}

/** Words laid out left to right from x with `gap` points between them, as separate runs. */
export function words(list: string[], x: number, y: number, gap: number, fontSize = 10): TextRun[] {
  const out: TextRun[] = [];
  let at = x;
  for (const w of list) {
    const r = run(w, at, y, fontSize);
    out.push(r);
    at += r.width + gap;
  }
  return out;
}
