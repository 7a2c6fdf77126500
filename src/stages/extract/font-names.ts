/**
 * Font names a document's records can keep. pdf.js names each font it loads `g_d<document>_f<n>`,
 * with a document count that runs over every document the process opens: the same page named
 * its fonts differently in another worker or after another document. Records name a document's
 * fonts `f1`, `f2`, … in the order the document first uses them, page after page: one font keeps
 * one name throughout the document, and the names are the same whichever process read it.
 *
 * One font is one typeface, whatever the file's objects: producers that write each page on its
 * own (print drivers, merged files) embed a subset of the same font page after page
 * ("ABCDEF+Arial-BoldMT", "GHIJKL+Arial-BoldMT"), which pdf.js loads as so many fonts. Fonts
 * the PDF names alike are one font in the records, so that what is set in one typeface reads
 * as such over the whole document (heading levels, tables' header rows).
 */
import type { Line } from "../../core/records.js";
import { typefaceName } from "./font-traits.js";
import type { Section } from "./page-layout.js";
import type { PdfFontStyles } from "./text-runs.js";

/** A document's renaming, filled as its pages come, in page order: by typeface where the PDF names it, else by pdf.js's font. */
export type FontNames = Map<string, string>;

/** Renames the fonts of a page's lines, in place; names pagestream gives (form fields, OCR) are kept. */
export function renameFonts(sections: readonly Section[], names: FontNames, styles: PdfFontStyles = {}): void {
  for (const section of sections) for (const line of section.lines) renameLineFonts(line, names, styles);
}

function renameLineFonts(line: Line, names: FontNames, styles: PdfFontStyles): void {
  for (const run of line.runs) {
    if (!PDFJS_FONT.test(run.fontName)) continue;
    const typeface = typefaceName(styles[run.fontName]?.fontName);
    const key = typeface === undefined ? run.fontName : `name:${typeface}`;
    let name = names.get(key);
    if (name === undefined) names.set(key, (name = `f${names.size + 1}`));
    run.fontName = name;
  }
}

/** pdf.js's loaded-font names (and its Type3 fonts'). */
const PDFJS_FONT = /^g_d\d+_/u;
