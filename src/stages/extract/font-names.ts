/**
 * Font names a document's records can keep. pdf.js names each font it loads `g_d<document>_f<n>`,
 * with a document count that runs over every document the process opens: the same page named
 * its fonts differently in another worker or after another document. Records name a document's
 * fonts `f1`, `f2`, … in the order the document first uses them, page after page: one font keeps
 * one name throughout the document, and the names are the same whichever process read it.
 */
import type { Line } from "../../core/records.js";
import type { Section } from "./page-layout.js";

/** A document's renaming, filled as its pages come, in page order. */
export type FontNames = Map<string, string>;

/** Renames the fonts of a page's lines, in place; names pagestream gives (form fields, OCR) are kept. */
export function renameFonts(sections: readonly Section[], names: FontNames): void {
  for (const section of sections) for (const line of section.lines) renameLineFonts(line, names);
}

function renameLineFonts(line: Line, names: FontNames): void {
  for (const run of line.runs) {
    if (!PDFJS_FONT.test(run.fontName)) continue;
    let name = names.get(run.fontName);
    if (name === undefined) names.set(run.fontName, (name = `f${names.size + 1}`));
    run.fontName = name;
  }
}

/** pdf.js's loaded-font names (and its Type3 fonts'). */
const PDFJS_FONT = /^g_d\d+_/u;
