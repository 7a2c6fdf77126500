/**
 * How many characters of a text are not white space: what `text.replace(/\s/g, "").length`
 * counts, without a copy of the text. Every page's characters are counted this way, by the
 * layout (a page's `chars`) and by flag-scans (its verdicts), so a page's count is the same
 * wherever it is asked.
 */
export function nonSpaceChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isWhiteSpace(text.charCodeAt(i))) n++;
  return n;
}

/** A UTF-16 code unit that `\s` matches: ECMAScript's WhiteSpace and LineTerminator. */
function isWhiteSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
