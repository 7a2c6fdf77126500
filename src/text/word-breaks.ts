/**
 * A line that ends inside a word: a hyphen glued to the letter before it, with the word going
 * on on the next line ("Drei-" + "ecke"). Whether the hyphen stays is the dehyphenate stage's
 * decision; layout only needs to know that the text does not stop there, so neither a
 * paragraph nor a table cell ends at such a line.
 */
const BROKEN_WORD_END = /\p{L}[-\u2010\u00AD]$/u;

export function breaksWordBefore(text: string, next: string): boolean {
  return BROKEN_WORD_END.test(text) && /^\p{L}/u.test(next);
}
