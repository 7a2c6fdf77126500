/**
 * Plain-text normalisation of a line (docs/extraction.md §6.1): a search for "file" must find "ﬁle".
 * - Ligature characters (U+FB00–U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) become their letters.
 * - Soft hyphens (U+00AD) inside a line are invisible break opportunities and go. One at the
 *   end of a line marks a word broken there: it stays, for the text renderer to join the word
 *   (reflow) or print a hyphen (preserve).
 * - No-break and other fixed-width spaces become plain spaces, so words split where they look split.
 */
export interface NormalizationOptions {
  expandLigatures: boolean;
  removeSoftHyphens: boolean;
}

const LIGATURES = /[\uFB00-\uFB06]/g;
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const INNER_SOFT_HYPHENS = /\u00AD+(?=.)/gsu;

export function normalizeLineText(text: string, options: NormalizationOptions): string {
  let out = text.replace(UNICODE_SPACES, " ");
  if (options.expandLigatures) out = out.replace(LIGATURES, (ch) => ch.normalize("NFKC"));
  if (options.removeSoftHyphens) out = out.replace(INNER_SOFT_HYPHENS, "");
  return out;
}
