/**
 * What a font's name says of it. pdf.js describes a page's fonts by their generic family only
 * ("serif", "monospace", from the font's flags); the name the PDF gives the font
 * ("ABCDEF+Arial-BoldMT", "CMBX12", "DejaVuSansMono") is added to its style by pagestream's build
 * of pdf.js (scripts/pdfjs-patches.mjs). Names follow conventions, not a standard, so these are the
 * conventions of the producers that make most PDFs (docs/extraction.md §1.2, §1.5):
 * - weight words in the style part of the name: Bold, Black, Heavy, Semibold, Demibold,
 *   ExtraBold, UltraBold; URW's Nimbus fonts (Ghostscript's Times and Helvetica) spell bold
 *   "Medi"; CJK families number their weights W0–W9, W6 and up being bold;
 * - TeX's bold fonts by family: Computer Modern CMBX/CMB/CMSSBX, the EC fonts SFBX/SFSX,
 *   Latin Modern and TeX Gyre spell out "Bold";
 * - fixed-pitch families that do not all declare it in their flags: Courier, the "Mono" families
 *   (DejaVu Sans Mono, Liberation Mono, Noto Sans Mono), Consolas, Menlo, Inconsolata, Source
 *   Code, Fira Code, TeX's typewriter fonts (CMTT, SFTT, LMMono).
 */

/** The name without the six-letter subset tag a producer puts before an embedded subset ("ABCDEF+"). */
function baseName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/u, "");
}

/**
 * The typeface a font's name says, for telling one font from another: the name without its subset
 * tag. A Type3 font without a name of its own (pdf.js calls it "Type3") says nothing.
 */
export function typefaceName(name: string | undefined): string | undefined {
  const base = name ? baseName(name) : "";
  return base === "" || base === "Type3" ? undefined : base;
}

const BOLD_WORDS = /bold|black|heavy|(?:semi|demi|extra|ultra)b|[-,_ ]Medi(?:Ital)?$|[-_ ]W[6-9]$/iu;
const TEX_BOLD = /^(?:CMBX|CMB\d|CMSSBX|CMTTB|SFBX|SFSX|SFBI|ECBX|ECSX|TCBX|EUB)/u;

/** The font's name says it is bold. */
export function isBoldFontName(name: string | undefined): boolean {
  if (!name) return false;
  const base = baseName(name);
  return BOLD_WORDS.test(base) || TEX_BOLD.test(base);
}

const MONOSPACE_NAMES = /courier|mono(?!type)|consol|menlo|inconsolata|sourcecode|firacode|typewriter|^(?:CMTT|CMSLTT|SFTT|EcTT|LMTypewriter)/iu;

/** The font's name is that of a fixed-pitch family, whatever its flags declare. */
export function isMonospaceFontName(name: string | undefined): boolean {
  return !!name && MONOSPACE_NAMES.test(baseName(name));
}

/**
 * Picture fonts whose glyphs have no Unicode meaning in the file: Wingdings, Webdings, WordPerfect's
 * typographic symbols, Marlett, Monotype Sorts. pdf.js gives their character codes as they are, so a
 * bullet comes out as "!" or "l" and a check mark as "ü". (Zapf Dingbats and Symbol are mapped by
 * pdf.js from their glyph names, and need nothing.)
 */
const PICTURE_FONTS = /wingding|webding|typographicsymbols|marlett|monotypesorts/iu;

/** What Wingdings' codes for boxes and marks show; any other glyph of a picture font is read as a bullet. */
const WINGDINGS: Record<string, string> = { "\u00FC": "✓", "\u00FB": "✗", "\u00FD": "☒", "\u00FE": "☑", o: "□", "\u00A8": "□", q: "❑", n: "■", l: "●" };

/**
 * The text a glyph of a picture font stands for, when `text` is one such glyph that pdf.js left as
 * its character code (ASCII or Latin-1); undefined otherwise (another font, or a glyph pdf.js did
 * map to a Unicode symbol).
 */
export function pictureGlyph(fontName: string | undefined, text: string): string | undefined {
  if (!fontName || !PICTURE_FONTS.test(baseName(fontName))) return undefined;
  const glyph = text.trim();
  if ([...glyph].length !== 1 || glyph.codePointAt(0)! > 0xff) return undefined;
  return /wingding/iu.test(fontName) ? (WINGDINGS[glyph] ?? "•") : "•";
}
