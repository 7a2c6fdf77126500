/**
 * List item markers: a bullet, or a number, letter or roman numeral with a point or bracket, or
 * a reference's key in square brackets ("[12]", "[Kar15a]", "[SPB+14]").
 * Lists look like two columns (markers, then text) and like two-column tables; they are neither.
 */
const MARKER = String.raw`(?:[•◦▪▫■□●○‣⁃∙·*]|[–—-]|\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]|\[[\p{L}\p{N}+.:-]{1,12}\])`;
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
