// The changes pagestream makes to pdf.js's minified builds when it bundles them
// (scripts/bundle.mjs): its parser (pdf.worker.min.mjs) and its API (pdf.min.mjs). Each is matched
// exactly once, or the build fails: a new pdf.js must be looked at again. Nothing else of pdf.js
// is changed.
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

/**
 * 3. `getTextContent` asks for the text's transform twice for every glyph it reads, each time
 * building the text-space matrix and multiplying three matrices through `Util.transform`, a
 * helper every part of pdf.js calls with arrays of every kind (so V8 cannot specialise it) and
 * that allocates a matrix per product: four arrays a glyph, most of the parser's garbage. The
 * product is written out in place instead: the same multiplications and additions in the same
 * order (the text matrix by the text-space matrix, then the CTM by that; a text-space entry that
 * is 0 is multiplied as 0, so a -0 or a NaN comes out as before), so every coordinate is the same
 * to the bit. The position compared with the last glyph's is written into one array kept for it
 * (it is read there and never kept); the transforms that items keep are new arrays as before.
 */
const textTransform = [
  {
    what: "getCurrentTextTransform",
    pattern:
      /function getCurrentTextTransform\(\)\{const ([\w$]+)=([\w$]+)\.font,([\w$]+)=\[\2\.fontSize\*\2\.textHScale,0,0,\2\.fontSize,0,\2\.textRise\];if\(\1\.isType3Font&&\(\2\.fontSize<=1\|\|\1\.isCharBBox\)&&!([\w$]+)\(\2\.fontMatrix,([\w$]+)\)\)\{const ([\w$]+)=\1\.bbox\[3\]-\1\.bbox\[1\];\6>0&&\(\3\[3\]\*=\6\*\2\.fontMatrix\[3\]\)\}return ([\w$]+)\.transform\(\2\.ctm,\7\.transform\(\2\.textMatrix,\3\)\)\}/g,
    replace:
      "function getCurrentTextTransform(out$=[0,0,0,0,0,0]){const $1=$2.font,s0$=$2.fontSize*$2.textHScale,s5$=$2.textRise;let s3$=$2.fontSize;" +
      "if($1.isType3Font&&($2.fontSize<=1||$1.isCharBBox)&&!$4($2.fontMatrix,$5)){const $6=$1.bbox[3]-$1.bbox[1];$6>0&&(s3$*=$6*$2.fontMatrix[3])}" +
      "const m$=$2.textMatrix,c$=$2.ctm," +
      "i0$=m$[0]*s0$+m$[2]*0,i1$=m$[1]*s0$+m$[3]*0,i2$=m$[0]*0+m$[2]*s3$," +
      "i3$=m$[1]*0+m$[3]*s3$,i4$=m$[0]*0+m$[2]*s5$+m$[4],i5$=m$[1]*0+m$[3]*s5$+m$[5];" +
      "out$[0]=c$[0]*i0$+c$[2]*i1$;out$[1]=c$[1]*i0$+c$[3]*i1$;out$[2]=c$[0]*i2$+c$[2]*i3$;out$[3]=c$[1]*i2$+c$[3]*i3$;" +
      "out$[4]=c$[0]*i4$+c$[2]*i5$+c$[4];out$[5]=c$[1]*i4$+c$[3]*i5$+c$[5];return out$}",
  },
  {
    what: "compareWithLastPosition's transform",
    pattern: /function compareWithLastPosition\(([\w$]+)\)\{const ([\w$]+)=getCurrentTextTransform\(\);/g,
    replace: "const positionNow$=[0,0,0,0,0,0];function compareWithLastPosition($1){const $2=getCurrentTextTransform(positionNow$);",
  },
];

/**
 * 6. `getTextContent` reads every operator of a page and passes over those that draw paths. It
 * now records what `getOperatorList` would give for them, so that extraction can find a table's
 * drawn rules (src/stages/extract/page-drawing.ts, rulings.ts) without pdf.js parsing the page a second time:
 * at each operator that strokes or fills a path, an item `{ type: "paintedPath", paint, path,
 * ctm }`, where `paint` is the operator, `path` the path as `getOperatorList`'s `constructPath`
 * encodes it (pdf.js's DrawOPS, in a Float32Array: built exactly as its `buildPath` builds it)
 * and `ctm` the transformation matrix in force (the text state's, which a form's matrix and `cm`
 * change as they change the operator list's). A path only ended (`n`, after a clip) or empty is
 * not recorded, as the rules never read one. A form XObject is read as `getTextContent` reads it
 * (its items come in order, its matrix in the CTM); one that paints a path is no longer taken for
 * empty by its cache of forms without text.
 */
const PATH_OPS = { moveTo: 13, endPath: 28 };
const paintedPathsRecorder = `(content=>{let path=[],x=0,y=0;return(fn,a,ctm)=>{switch(fn){
case 13:path.push(0,x=a[0],y=a[1]);break;
case 14:path.push(1,x=a[0],y=a[1]);break;
case 15:path.push(2,a[0],a[1],a[2],a[3],x=a[4],y=a[5]);break;
case 16:path.push(2,x,y,a[0],a[1],x=a[2],y=a[3]);break;
case 17:path.push(2,a[0],a[1],a[2],a[3],x=a[2],y=a[3]);break;
case 18:path.push(4);break;
case 19:{const x0=x=a[0],y0=y=a[1],xw=x0+a[2],yh=y0+a[3];0===a[2]||0===a[3]?path.push(0,x0,y0,1,xw,yh,4):path.push(0,x0,y0,1,xw,y0,1,xw,yh,1,x0,yh,4);break}
default:if(21===fn||26===fn||27===fn)path.push(4);if(path.length&&28!==fn)content.items.push({type:"paintedPath",paint:fn,path:new Float32Array(path),ctm:Array.from(ctm)});path=[]}}})`.replace(/\n/g, "");
const paintedPaths = [
  {
    what: "getTextContent's text content",
    pattern: /const ([\w$]+)=\{items:\[\],styles:Object\.create\(null\),lang:([\w$]+)\},/g,
    replace: `const $1={items:[],styles:Object.create(null),lang:$2},pagestreamPaintedPath=${paintedPathsRecorder}($1),`,
  },
  {
    what: "getTextContent's operator switch",
    pattern: /([\w$]+)=([\w$]+)\.state;([\w$]+)\|\|=\1\.clone\(\);const ([\w$]+)=([\w$]+)\.fn;([\w$]+)=\5\.args;switch\(0\|\4\)\{/g,
    replace: `$1=$2.state;$3||=$1.clone();const $4=$5.fn;$6=$5.args;if($4>=${PATH_OPS.moveTo}&&$4<=${PATH_OPS.endPath}){pagestreamPaintedPath($4,$6,$1.ctm);continue}switch(0|$4){`,
  },
];

/**
 * 7. The text state is saved at every `q` and at every change of font or size, as a clone made
 * with `Object.create(this)`: each clone's prototype is the state it was made from. Every clone
 * then has a hidden class of its own, so the property reads of the text pass (font, size,
 * matrices, for every glyph) meet a new shape at each state and V8 gives up specialising them,
 * and each state made a prototype is reshaped as one. A clone copies every field as its own
 * (Object.assign), so nothing is read through that chain: clones are made on TextState's own
 * prototype instead, with the same fields and values.
 */
const textStateClone = {
  what: "TextState's clone",
  pattern: /(class TextState\{[^]*?clone\(\)\{const [\w$]+=Object\.assign\(Object\.create\()this(\),this\);)/g,
  replace: "$1TextState.prototype$2",
};

/**
 * 8. With font faces off (pagestream never loads one), `getOperatorList` builds the outline of
 * every glyph a page shows and sends each to the API, for a canvas to fill them. A document
 * opened with `maxImageSize` 1 (patch 2: extraction, whose images are never decoded, so whose
 * pages are never drawn) asks the operator list only what a page paints (page-probe.ts), so no
 * outline is built for it: the operator list is the same. A document opened to be drawn (OCR's
 * rendering) keeps them.
 */
const glyphOutlinesForDrawing = {
  what: "handleText's buildFontPaths",
  pattern: /(handleText\(([\w$]+),([\w$]+)\)\{const ([\w$]+)=\3\.font,([\w$]+)=\4\.charsToGlyphs\(\2\);if\(\4\.data)\)\{/g,
  replace: "$1&&1!==this.options.maxImageSize){",
};

/**
 * 9. A CJK font that is not embedded names one of the CMaps pdf.js ships ("UniJIS-UCS2-H",
 * "90ms-RKSJ-H"), which maps its codes to characters. pdf.js fetches and parses it for every
 * document that uses it: tens of thousands of mappings, a fifth of such a document's time. The
 * parsed CMap is kept for the process instead (the last CMAP_CACHE_SIZE used), as pagestream
 * opens every document with the same CMaps (the package's). A CMap is only read once built (a
 * CMap that extends one copies its mappings), so the documents share it. One that failed to
 * load is not kept.
 */
const CMAP_CACHE_SIZE = 16;
const builtInCMapsKept = {
  what: "createBuiltInCMap",
  pattern:
    /async function createBuiltInCMap\(([\w$]+),([\w$]+)\)\{(if\("Identity-H"===\1\)return new IdentityCMap\(!1,2\);if\("Identity-V"===\1\)return new IdentityCMap\(!0,2\);if\(!([\w$]+)\.has\(\1\)\))/g,
  replace:
    "const pagestreamCMaps=new Map;" +
    'function createBuiltInCMap($1,$2){if("Identity-H"===$1||"Identity-V"===$1||!$4.has($1))return createBuiltInCMapOnce($1,$2);' +
    "const kept=pagestreamCMaps.get($1);if(kept){pagestreamCMaps.delete($1);pagestreamCMaps.set($1,kept);return Promise.resolve(kept)}" +
    `return createBuiltInCMapOnce($1,$2).then(c=>{pagestreamCMaps.set($1,c);pagestreamCMaps.size>${CMAP_CACHE_SIZE}&&pagestreamCMaps.delete(pagestreamCMaps.keys().next().value);return c})}` +
    "async function createBuiltInCMapOnce($1,$2){$3",
};

/**
 * 10. Every embedded font, and every standard font pdf.js substitutes from its own files (a
 * Liberation TrueType for a Helvetica the document does not embed), is rebuilt as an OpenType
 * file for a browser's font loader: glyph outlines sanitised (and scaled, for the standard font
 * that stands in for an XFA form's font), hinting programs checked, each code mapped to a glyph,
 * new cmap, OS/2, name and post tables, the whole written out (a Type 1 or CFF font first
 * compiled to CFF). A document opened for extraction (`maxImageSize` 1, as patches 2 and 8)
 * never loads a font face, so that file is never read: while such a document's font is built,
 * those steps are left out and the font has no `data`.
 * What text is read with is all still worked out as before: the font's tables are read and
 * checked (the same errors fall back to a system font), its ascent and descent, encodings,
 * glyph names, Unicode maps and widths. What the steps left out decide is only the file and
 * which glyph each code is drawn with (`toFontChar`, which a glyph's text never comes from in
 * a font whose file was read; it stays empty). The outline check throws for a TrueType font of
 * no glyphs, which then falls back: for such a font it still runs. A font with no file at all
 * whose name pdf.js does not know gets no glyph map either (for a CID font, one entry per code
 * of its Unicode map: 65,536 for an identity map): its text is read through that map only when
 * it is written vertically (a vertical presentation form stands in for its glyph), which keeps it.
 * A TrueType font's tables are not put together into a file at all: a table the steps left out
 * and the font lacks (an OS/2 table, which many subsets have not) would be missing there, and
 * the font would throw and fall back to a system font. It did, for 133 of the 306 TrueType
 * fonts the corpus's 152 documents load (in 44 of them), each throw about 0.6 ms (to word its
 * message, V8 parses the function it came from again, all of checkAndRepair): 12 % of the
 * instructions of the filled AcroForm's reading.
 * The font knows it is read for its text (`pagestreamForText`, set first in its constructor,
 * where the fallback reads it); the builders are functions of pdf.js's module, asked while the
 * constructor converts the font's file, synchronously, so a flag set for that time only
 * (`pagestreamFontForText`) tells them.
 */
const fontFileSkipped = [
  {
    what: "the Font constructor's options",
    pattern: /this\.disableFontFace=([\w$]+)\.disableFontFace;this\.fontExtraProperties=/g,
    replace: "this.disableFontFace=$1.disableFontFace;this.pagestreamForText=1===$1.maxImageSize;this.fontExtraProperties=",
  },
  {
    what: "the Font constructor's conversion",
    pattern:
      /(constructor\(([\w$]+),[\w$]+,[\w$]+,([\w$]+)\)\{this\.name=\2;this\.psName=null;this\.disableFontFace=\3\.disableFontFace;[^]*?)let ([\w$]+);try\{switch\(([\w$]+)\)\{case"MMType1":([^]*?)\}catch\(([\w$]+)\)\{warn\(\7\);this\.fallbackToSystemFont\(([\w$]+)\);return\}/g,
    replace: "$1let $4;pagestreamFontForText=this.pagestreamForText;try{switch($5){case\"MMType1\":$6}catch($7){warn($7);this.fallbackToSystemFont($8);return}finally{pagestreamFontForText=!1}",
  },
  {
    what: "fallbackToSystemFont's glyph map of a font of no known name",
    pattern: /else\{const ([\w$]+)=([\w$]+)\(\),([\w$]+)=new Map;this\.toUnicode\.forEach\(\(([\w$]+),([\w$]+)\)=>\{if\(!this\.composite\)/g,
    replace: "else{const $1=$2(),$3=new Map;this.pagestreamForText&&!this.vertical||this.toUnicode.forEach(($4,$5)=>{if(!this.composite)",
  },
  {
    what: "createCmapTable",
    pattern: /function createCmapTable\([\w$]+,[\w$]+,[\w$]+\)\{/g,
    replace: "var pagestreamFontForText=!1;$&if(pagestreamFontForText)return new Uint8Array(0);",
  },
  { what: "createOS2Table", pattern: /function createOS2Table\([\w$]+,[\w$]+,[\w$]+\)\{/g, replace: "$&if(pagestreamFontForText)return new Uint8Array(0);" },
  { what: "createPostTable", pattern: /function createPostTable\([\w$]+\)\{/g, replace: "$&if(pagestreamFontForText)return new Uint8Array(0);" },
  { what: "createNameTable", pattern: /function createNameTable\([\w$]+,[\w$]+\)\{/g, replace: "$&if(pagestreamFontForText)return new Uint8Array(0);" },
  { what: "OpenTypeFileBuilder's toArray", pattern: /toArray\(\)\{let ([\w$]+)=this\.sfnt;/g, replace: "toArray(){if(pagestreamFontForText)return;let $1=this.sfnt;" },
  {
    what: "checkAndRepair's file",
    pattern: /(\}else ([\w$]+)\.name=\{tag:"name",data:createNameTable\(this\.name\)\};)const ([\w$]+)=new OpenTypeFileBuilder\(/g,
    replace: "$1if(pagestreamFontForText)return;const $3=new OpenTypeFileBuilder(",
  },
  {
    what: "checkAndRepair's glyph scaling",
    pattern: /if\(([\w$]+)\.scaleFactors\?\.length===([\w$]+)&&([\w$]+)\)\{/g,
    replace: "if($1.scaleFactors?.length===$2&&$3&&!pagestreamFontForText){",
  },
  { what: "sanitizeTTPrograms", pattern: /function sanitizeTTPrograms\([\w$]+,[\w$]+,[\w$]+,[\w$]+\)\{/g, replace: "$&if(pagestreamFontForText)return!0;" },
  {
    what: "sanitizeGlyphLocations",
    pattern: /function sanitizeGlyphLocations\([\w$]+,[\w$]+,([\w$]+),[\w$]+,[\w$]+,[\w$]+,([\w$]+)\)\{/g,
    replace: "$&if(pagestreamFontForText&&$1>0)return{missingGlyphs:new Uint8Array($1).fill(1),maxSizeOfInstructions:$2};",
  },
  {
    what: "checkAndRepair's glyph mapping",
    pattern: /if\(!([\w$]+)\.cssFontInfo\)\{const ([\w$]+)=adjustMapping\(([\w$]+),hasGlyph,/g,
    replace: "if(!$1.cssFontInfo&&!pagestreamFontForText){const $2=adjustMapping($3,hasGlyph,",
  },
  {
    what: "checkAndRepair's codes by glyph name",
    pattern: /for\(let ([\w$]+)=0;\1<256;\1\+\+\)\{let ([\w$]+);\2=this\.differences\.has\(\1\)/g,
    replace: "for(let $1=0;$1<(pagestreamFontForText?0:256);$1++){let $2;$2=this.differences.has($1)",
  },
  {
    what: "CFFFont's compile",
    pattern: /try\{this\.data=([\w$]+)\.compile\(\)\}catch\(([\w$]+)\)\{warn\(`Failed to compile font "/g,
    replace: 'try{this.data=pagestreamFontForText?void 0:$1.compile()}catch($2){warn(`Failed to compile font "',
  },
  {
    what: "Type1Font's wrap",
    pattern: /this\.data=(this\.wrap\([\w$]+,[\w$]+,this\.charstrings,[\w$]+,[\w$]+\));this\.seacs=this\.getSeacs\(/g,
    replace: "this.data=pagestreamFontForText?void 0:$1;this.seacs=this.getSeacs(",
  },
];

/**
 * 11. A page's structure tree holds every element with content on the page, and the elements
 * around them; for a table or a list, pdf.js takes in all of its rows and cells, or items,
 * besides, whichever page they are on (`addNode`'s role switch). A table that runs over many
 * pages then comes whole with each of them: 160 KB of tree for every page of a 16-page tagged
 * report, a third of its reading, and the work grows with the pages times the table. For a
 * document opened for extraction (`maxImageSize` 1, as patches 2, 8 and 10), a table, its
 * sections (THead, TBody, TFoot), a list, its items and their bodies take in only the children
 * with content on the page, which come in through that content anyway; a row takes in all its
 * cells as before, so an empty cell keeps its column. Extraction reads a table's rows and a
 * list's items from the content on the page (structure-order.ts, tagged-table.ts): a row or an
 * item with none there gives no line.
 */
const structureRowsOfPage = [
  {
    what: "the page's structure tree, told it is read for text",
    pattern: /_parseStructTree\(([\w$]+)\)\{const ([\w$]+)=new StructTreePage\(\1,this\.pageDict\);\2\.parse\(this\.ref\);return \2\}/g,
    replace: "_parseStructTree($1){const $2=new StructTreePage($1,this.pageDict);$2.pagestreamForText=1===this.evaluatorOptions.maxImageSize;$2.parse(this.ref);return $2}",
  },
  {
    what: "addNode's role switch",
    pattern: /switch\(([\w$]+)\.role\)\{case"L":case"LBody":case"LI":case"Table":case"THead":case"TBody":case"TFoot":case"TR":/g,
    replace: 'switch($1.role){case"L":case"LBody":case"LI":case"Table":case"THead":case"TBody":case"TFoot":if(this.pagestreamForText)break;case"TR":',
  },
];

/**
 * 12. A page's annotations that lie over its text (a link, a highlight, an underline, a
 * strike-out) are given the text they cover (`overlaidText`): pdf.js reads the page's whole
 * text a second time, glyph by glyph, to find it. A third of the pages of the 86 real and
 * business PDFs carry a link (a paper's references, an RFC's contents), and that second reading
 * was a fifth of such a document's extraction. Extraction reads an annotation's fields, a
 * free-text note's own text and a field's value, never the text under it: a document opened
 * for extraction (`maxImageSize` 1, as patches 2, 8, 10 and 11) is not read twice, and its
 * annotations come without `overlaidText`. A free-text note's or a field's text is read as before.
 */
const overlaidTextSkipped = {
  what: "getAnnotationsData's reading of the text under annotations",
  pattern: /else ([\w$]+)\.overlaysTextContent&&([\w$]+)&&([\w$]+)\.push\(\1\)\}if\(\3\.length>0\)\{const ([\w$]+)=new Intersector\(\3\);/g,
  replace: "else $1.overlaysTextContent&&$2&&$3.push($1)}if($3.length>0&&1!==this.evaluatorOptions.maxImageSize){const $4=new Intersector($3);",
};

/**
 * 13. A document's metadata (`getMetadata`) comes with its catalog's XMP packet parsed into a map
 * (`metadata`): an XML parse of some kilobytes, which ocrmypdf, Word and Acrobat write into
 * nearly every file, 0.1 ms of a small scan's 1 ms. Extraction reads the Info dictionary only
 * (the title, whether the document is an XFA form): a document opened for extraction
 * (`maxImageSize` 1, as patches 2, 8, 10, 11 and 12) gets its Info as before and no `metadata`.
 */
const xmpMetadataSkipped = {
  what: "GetMetadata's XMP packet",
  pattern: /on\("GetMetadata",function\(\)\{return Promise\.all\(\[([\w$]+)\.ensureDoc\("documentInfo"\),\1\.ensureCatalog\("metadata"\),/g,
  replace: 'on("GetMetadata",function(){return Promise.all([$1.ensureDoc("documentInfo"),1===$1.evaluatorOptions.maxImageSize?null:$1.ensureCatalog("metadata"),',
};

/**
 * 14. Every markup annotation that carries rich text (`RC`: a note, a free-text comment, a
 * highlight's comment, as Acrobat writes each of them) has it parsed as XHTML into a tree for a
 * viewer's popup (`richText`), and so has each popup. Extraction reads a free-text note's text
 * from its appearance, the text it shows, and a field's value, never the rich text: a document
 * opened for extraction (`maxImageSize` 1, as patches 2, 8, 10 to 13) gets its annotations
 * without `richText`. Each annotation knows it is read for text (`pagestreamForText`, set in
 * the Annotation constructor, which every subclass calls first).
 */
const richTextSkipped = [
  {
    what: "the Annotation constructor's options",
    pattern: /this\._isOffscreenCanvasSupported=([\w$]+)\.evaluatorOptions\.isOffscreenCanvasSupported;/g,
    replace: "this._isOffscreenCanvasSupported=$1.evaluatorOptions.isOffscreenCanvasSupported;this.pagestreamForText=1===$1.evaluatorOptions.maxImageSize;",
  },
  {
    what: "MarkupAnnotation's rich text",
    pattern: /(this\.data\.popupRef=([\w$]+) instanceof Ref\?\2\.toString\(\):null;)([\w$]+)\.has\("RC"\)&&/g,
    replace: '$1!this.pagestreamForText&&$3.has("RC")&&',
  },
  {
    what: "PopupAnnotation's rich text",
    pattern: /(this\.data\.contentsObj=this\._contents;)([\w$]+)\.has\("RC"\)&&/g,
    replace: '$1!this.pagestreamForText&&$2.has("RC")&&',
  },
];

/**
 * 15. The parser's table of operators (`EvaluatorPreprocessor.opMap`) is a static getter that
 * replaces itself with its value on first use (`shadow`). Redefining a property of the class that
 * way leaves the class object in dictionary mode, and that class is the prototype of its
 * subclasses' constructors (the evaluators of a field's default appearance and of an appearance
 * stream): V8's optimising compiler, compiling a subclass's constructor, counts on the map of
 * that prototype staying as it is, finds that a dictionary's has not, and throws the compile
 * away, read after read. Reading the filled AcroForm 300 times, its fields' constructors were
 * compiled 31 times in the last 150 reads (5–14 ms each, on a background thread) and never ran
 * optimised. The table is made a static field instead, the same object built when the class is
 * (its operator numbers are defined before it): no compile is thrown away, 1.7 → 1.0 s of
 * background compiling over those reads, and the form is read with 0.89–0.94× the CPU time
 * (three rounds of 150 alternating reads), in the same wall-clock time. What the table
 * holds is unchanged: every fixture's text content is compared with published pdf.js's, to the
 * bit (test/extract/pdfjs-patches.test.ts), and every operator is looked up in it.
 */
const operatorTableField = {
  what: "EvaluatorPreprocessor's opMap getter",
  pattern: /static get opMap\(\)\{return [\w$]+\(this,"opMap",(Object\.assign\(Object\.create\(null\),\{[^]*?\}\))\)\}/g,
  replace: "static opMap=$1;",
};

/**
 * 17. pdf.js's parser reads an array or a dictionary by calling itself for each value, with no
 * limit on how deep values nest: a PDF nesting them a hundred thousand deep (a page's resources
 * of `[[[…]]]`) runs the stack out, and the RangeError is thrown wherever the stack happens to
 * end (how deep that is depends on how much of the parser V8 has optimised by then). Values
 * nested deeper than 512 are now a FormatError where they are read, like any other malformed
 * object: the page that needs them cannot be read, the others are. Chromium's PDFium refuses
 * objects nested deeper than 64 and content-stream operands deeper than 512; 512 frames of the
 * parser are far from the stack's end.
 */
const MAX_NESTING = 512;
const nestingLimit = [
  {
    what: "the Parser constructor",
    pattern: /(class Parser\{[^{]*constructor\(\{lexer:([\w$]+),xref:([\w$]+),allowStreams:([\w$]+)=!1,recoveryMode:([\w$]+)=!1\}\)\{this\.lexer=\2;this\.xref=\3;this\.allowStreams=\4;this\.recoveryMode=\5;)this\.refill\(\)\}/g,
    replace:
      "$1this.nesting$=0;this.refill()}" +
      `nestedObj$(e){if(this.nesting$>=${MAX_NESTING})throw new FormatError("Objects nested more than ${MAX_NESTING} deep.");this.nesting$++;try{return this.getObj(e)}finally{this.nesting$--}}`,
  },
  {
    what: "the parser's array values",
    pattern: /(case"\[":const ([\w$]+)=\[\];for\(;!isCmd\(this\.buf1,"\]"\)&&this\.buf1!==([\w$]+);\)\2\.push\(this\.)getObj\(([\w$]+)\)\)/g,
    replace: "$1nestedObj$($4))",
  },
  {
    what: "the parser's dictionary values",
    pattern: /(const ([\w$]+)=this\.buf1\.name;this\.shift\(\);if\(this\.buf1===([\w$]+)\)break;([\w$]+)\.set\(\2,this\.)getObj\(([\w$]+)\)\)\}if\(this\.buf1===\3\)\{if\(this\.recoveryMode\)return \4;/g,
    replace: "$1nestedObj$($5))}if(this.buf1===$3){if(this.recoveryMode)return $4;",
  },
];

/**
 * 18. Reading the page tree for a page, pdf.js starts fetching every page the tree's top lists,
 * each fetch's promise kept for when that page is asked for, with no one listening yet. A page
 * whose dictionary cannot be parsed rejects its promise long before it is asked for: Node then
 * reports a rejection no one handled, which ends a process that reads PDFs in its own thread (the
 * library's `processDocument`) and failed a whole document in a worker. Each kept promise is
 * marked handled as it is made; asked for, the page still gets its error, as a page that cannot
 * be read, and the other pages are read.
 */
const prefetchedPagesHandled = {
  what: "getPageDict's fetches of the top-level pages",
  pattern: /(&&![\w$]+\.has\([\w$]+\)&&[\w$]+\.put\([\w$]+,)([\w$]+\.fetchAsync\([\w$]+\))\)/g,
  replace: "$1(p$=>(p$.catch(()=>{}),p$))($2))",
};

export const WORKER_PATCHES = [fontNames, placedImages, ...textTransform, ...paintedPaths, textStateClone, glyphOutlinesForDrawing, builtInCMapsKept, ...fontFileSkipped, ...structureRowsOfPage, overlaidTextSkipped, xmpMetadataSkipped, ...richTextSkipped, operatorTableField, ...nestingLimit, prefetchedPagesHandled];

/**
 * 4. The API no longer loads @napi-rs/canvas as it loads. pdf.js requires the library at its top
 * level, in Node, and takes `DOMMatrix` and `Path2D` from it; the patched build hands that to
 * `__pdfjsPolyfillCanvas` (src/stages/extract/lazy-canvas.ts, a parameter of the script), which
 * makes the two globals load the library when first read.
 */
const lazyCanvas = {
  what: "the @napi-rs/canvas polyfills of DOMMatrix and Path2D",
  pattern:
    /try\{const ([\w$]+)=process\.getBuiltinModule\("module"\)\.createRequire\(import\.meta\.url\);try\{([\w$]+)=\1\("@napi-rs\/canvas"\)\}catch\(([\w$]+)\)\{warn\(`Cannot load "@napi-rs\/canvas" package: "\$\{\3\}"\.`\)\}\}catch\(([\w$]+)\)\{warn\(`Cannot access the \\`require\\` function: "\$\{\4\}"\.`\)\}globalThis\.DOMMatrix\|\|\(\2\?\.DOMMatrix\?globalThis\.DOMMatrix=\2\.DOMMatrix:warn\("Cannot polyfill `DOMMatrix`, rendering may be broken\."\)\);globalThis\.Path2D\|\|\(\2\?\.Path2D\?globalThis\.Path2D=\2\.Path2D:warn\("Cannot polyfill `Path2D`, rendering may be broken\."\)\);/g,
  replace: '__pdfjsPolyfillCanvas(()=>process.getBuiltinModule("module").createRequire(import.meta.url)("@napi-rs/canvas"));',
};

/**
 * 5. In Node, pdf.js's parser runs on the calling thread, behind a port that copies every message
 * it passes (`structuredClone`), as a real worker's port would. Two kinds of message the parser
 * builds afresh for that one message, and never touches again, are handed over without copying
 * what they hold (the API only reads them):
 * - the chunks of a page's text content (`{ items, styles, lang }`, sent without transfers): the
 *   parser builds each item afresh and, once a chunk is sent, puts new `items` and `styles` on
 *   the same chunk object (so that object is copied, one level, at sending). The deep copy cost
 *   5 % of the extract stage's CPU with the garbage it left;
 * - the answer to `getStructTree`, a tree the parser serialises afresh at every call (its root
 *   `{ children, role: "Root" }`). A tagged document's element tree is in every page's answer
 *   (its tables' rows and cells, empty of the page's content: 5,800 nodes a page for a 16-page
 *   report), and copying it was 8 % of such a document's time.
 * - a message of plain values only (no object in it): a stream's requests for more, its
 *   acknowledgements, its end (23,000 of each over 86 documents), which a copy only re-creates.
 * Every other message (operator lists, whose arrays the parser empties after sending, fonts,
 * transfers, answers the parser may keep) is copied as before.
 */
const freshMessagesUncopied = {
  what: "LoopbackPort's structuredClone",
  pattern: /postMessage\(([\w$]+),([\w$]+)\)\{const ([\w$]+)=\{data:structuredClone\(\1,\2\?\{transfer:\2\}:null\)\};/g,
  replace:
    "postMessage($1,$2){const $3={data:$2?structuredClone($1,{transfer:$2}):$1?.chunk?.items&&$1.chunk.styles?{...$1,chunk:{...$1.chunk}}:" +
    '$1?.callbackId!==void 0&&$1.data?.role==="Root"&&Array.isArray($1.data.children)?$1:' +
    'Object.getPrototypeOf($1??0)===Object.prototype&&Object.values($1).every(v=>null===v||"object"!=typeof v&&"function"!=typeof v&&"symbol"!=typeof v)?$1:structuredClone($1,null)};',
};

export const API_PATCHES = [lazyCanvas, freshMessagesUncopied];

/** `source` (pdf.js's file `file`) with each of `patches` applied. */
export function patchPdfJs(source, patches, file) {
  for (const { what, pattern, replace } of patches) {
    const found = source.match(pattern)?.length ?? 0;
    if (found !== 1) throw new Error(`${file}: expected ${what} once, found it ${found} times (pdf.js changed; see scripts/pdfjs-patches.mjs)`);
    source = source.replace(pattern, replace);
  }
  return source;
}

const PDFJS_BUILD = /[\\/]pdfjs-dist[\\/]legacy[\\/]build[\\/](pdf\.worker\.min\.mjs|pdf\.min\.mjs)$/;

/** The esbuild plugin that applies the patches to pdf.js's minified parser and API. */
export const pdfjsPatches = {
  name: "pdfjs-patches",
  setup(b) {
    b.onLoad({ filter: PDFJS_BUILD }, async (args) => {
      const file = PDFJS_BUILD.exec(args.path)[1];
      const patches = file === "pdf.worker.min.mjs" ? WORKER_PATCHES : API_PATCHES;
      return { contents: patchPdfJs(await readFile(args.path, "utf8"), patches, file), loader: "js" };
    });
  },
};
