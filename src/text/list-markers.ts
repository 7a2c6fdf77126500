/**
 * List item markers: a bullet, or a number, letter or roman numeral with a point or bracket, or
 * a reference's key in square brackets ("[12]", "[Kar15a]", "[SPB+14]").
 * Lists look like two columns (markers, then text) and like two-column tables; they are neither.
 */
/** A single letter or a roman numeral: a marker that a name's initial can pass for. */
const LETTER = String.raw`[a-z]|[ivx]{1,4}`;
const MARKER = String.raw`(?:[•◦▪▫■□●○‣⁃∙·*]|[–—-]|\(?(?:\d{1,3}|${LETTER})[.)]|\[[\p{L}\p{N}+.:-]{1,12}\])`;
const WHOLE = new RegExp(`^${MARKER}$`, "iu");
const LEADING = new RegExp(`^${MARKER}\\s`, "iu");

/** The text is nothing but a list marker ("•", "3.", "(b)"). */
export function isListMarker(text: string): boolean {
  return WHOLE.test(text.trim());
}

/** The line opens a list item ("• Lengths are…", "2. The board…"). */
export function startsWithListMarker(text: string): boolean {
  return LEADING.test(text);
}

/** The line opens with a typographic bullet ("• ", "▪ "): how a list item opens, never a line of code (a dash or `*` may be either). */
export function startsWithBullet(text: string): boolean {
  return /^[•◦▪▫■□●○‣⁃∙]\s/u.test(text);
}

/** A letter or roman-numeral marker and a space ("A. ", "iv) "): a name's initial looks the same ("A. Novak"). */
const LETTER_LEADING = new RegExp(String.raw`^\(?(${LETTER})[.)]\s`, "iu");

/** The letter or roman numeral a line opens with as its marker ("b" of "b) The…"), if any. */
export function letterMarker(text: string): string | undefined {
  return LETTER_LEADING.exec(text)?.[1];
}

/** `next` is the marker after `marker` in a list: b after a, B after A, iv after iii. */
export function followsMarker(marker: string, next: string): boolean {
  const a = romanValue(marker);
  const b = romanValue(next);
  if (a !== undefined && b !== undefined && b === a + 1) return true;
  return marker.length === 1 && next.length === 1 && next.charCodeAt(0) === marker.charCodeAt(0) + 1;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** A roman numeral's value ("iv" 4, "XII" 12), in lower or upper case, up to C; undefined for anything else. */
export function romanValue(text: string): number | undefined {
  if (!/^(?:[ivxlc]+|[IVXLC]+)$/u.test(text)) return undefined;
  let total = 0;
  const digits = [...text.toLowerCase()].map((c) => ROMAN[c]!);
  digits.forEach((d, k) => (total += d < (digits[k + 1] ?? 0) ? -d : d));
  return total;
}
