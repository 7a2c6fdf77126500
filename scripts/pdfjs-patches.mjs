// The changes pagestream makes to pdf.js's minified parser (pdf.worker.min.mjs) when it bundles
// it (scripts/bundle.mjs). Each is matched exactly once, or the build fails: a new pdf.js must
// be looked at again. Nothing else of pdf.js is changed.
import { readFile } from "node:fs/promises";

/**
 * 1. `getTextContent` describes each font of a page in `styles` by its generic family only
 * ("serif", "monospace"), while the font's own name ("ABCDEF+Arial-BoldMT") is what says it is
 * bold, which headings are often told by (docs/extraction.md §1.5, §6.5). The parser's style
 * entry gets the font's name as `fontName` beside the family.
 */
const fontNames = {
  what: "the text styles' fontFamily",
  pattern: /fontFamily:([\w$]+)\.fallbackName,ascent:/g,
  replace: "fontFamily:$1.fallbackName,fontName:$1.name,ascent:",
};

// pdf.js's operator numbers (its OPS table, unchanged since pdf.js 1.x).
const PAINT_IMAGE_MASK_XOBJECT = 83;
const PAINT_IMAGE_XOBJECT = 85;

/**
 * 2. An image larger than the `maxImageSize` option (in pixels) is placed, never decoded: its
 * paint operation stays in the operator list, with an empty image (`{}`: the list's transfer of
 * mask data reads its first argument), instead of pdf.js removing it.
 * Extraction asks the operator list what a page paints (scan verdicts, page-probe.ts; drawn
 * rules, page-drawing.ts), never what the images hold, and decoding a scanned page's image
 * costs ten times its whole text. Image masks keep their own operation, so counts are those
 * of the decoded list; a 1×1 mask (pdf.js's solid-colour case) stays below a size of 1.
 */
const placedImages = {
  what: "buildPaintImageXObject's maxImageSize branch",
  pattern:
    /(async buildPaintImageXObject\(\{[^}]*operatorList:([\w$]+)[^}]*\}\)\{const\{maxImageSize:([\w$]+)[^}]*\}=this\.options,\{dict:([\w$]+)\}=[^;]*;if\([^{]*\{warn\("Image dimensions are missing, or not numbers\."\);return\})if\(-1!==\3&&([\w$]+)\*([\w$]+)>\3\)\{const ([\w$]+)="Image exceeded maximum allowed size and was removed\.";if\(![\w$]+\)throw new Error\(\7\);warn\(\7\);return\}/g,
  replace: `$1if(-1!==$3&&$5*$6>$3){$2.addImageOps($4.get("IM","ImageMask")?${PAINT_IMAGE_MASK_XOBJECT}:${PAINT_IMAGE_XOBJECT},[{}],void 0);return}`,
};

export const PDFJS_PATCHES = [fontNames, placedImages];

/** The parser's source with every patch applied. */
export function patchPdfJsWorker(source, file = "pdf.worker.min.mjs") {
  for (const { what, pattern, replace } of PDFJS_PATCHES) {
    const found = source.match(pattern)?.length ?? 0;
    if (found !== 1) throw new Error(`${file}: expected ${what} once, found it ${found} times (pdf.js changed; see scripts/pdfjs-patches.mjs)`);
    source = source.replace(pattern, replace);
  }
  return source;
}

/** The esbuild plugin that applies the patches to pdf.js's minified parser. */
export const pdfjsPatches = {
  name: "pdfjs-patches",
  setup(b) {
    b.onLoad({ filter: /[\\/]pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.worker\.min\.mjs$/ }, async (args) => ({
      contents: patchPdfJsWorker(await readFile(args.path, "utf8")),
      loader: "js",
    }));
  },
};
