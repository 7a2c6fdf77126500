/**
 * The records that flow through a pipeline.
 *
 * A source lists {@link SourceItem}s: plain JSON, no bytes, so an item can be sent to a worker
 * process or another machine, where the source is built again from the pipeline and reads it
 * (`Source.read`). The document's bytes are read there, hashed into its `documentId`, and run
 * through the stages as a stream of {@link PageRecord}s; the sinks get one
 * {@link DocumentResult} per document: the document, its pages, or the error that stopped it.
 *
 * One identity, one name: `documentId` is the sha256 of a document's bytes (hex), in code, in
 * the JSONL (`document_id`), in the archive and in the run state.
 */

/** A document a source found: data only, JSON all the way down, readable by `Source.read` wherever it is sent. */
export interface SourceItem {
  /** Where the document lives: a file path, or `s3://bucket/key`. Kept in every sink. */
  readonly uri: string;
  /** Size in bytes as listed by the source. */
  readonly size: number;
  /** Last modification time, milliseconds since the epoch. */
  readonly mtimeMs: number;
  /**
   * What the source knows of the content without reading it: a file's size and mtime, an
   * object's ETag. A changed fingerprint means the content may have changed; an unchanged one
   * lets an incremental run skip the item before its bytes are read.
   */
  readonly fingerprint: string;
  /**
   * Where the document is under the source's root, with "/" between names (a folder source's
   * path under its folder, an S3 key under the prefix): what outputs show beside `uri`, the same
   * on every machine the source is mounted or read from.
   */
  readonly path?: string;
  /**
   * Set when the source met an entry it cannot offer (a subfolder it may not list): the run
   * gives it an error record with this code and message instead of reading it.
   */
  readonly problem?: { readonly code: ErrorCode; readonly message: string };
  /** Whatever else the source needs to read it again (a path under its root, an object key): JSON values only. */
  readonly [key: string]: unknown;
}

/**
 * What a watching source reports after its listing: a file that appeared or changed (and has
 * stopped changing), or one that is gone.
 */
export type SourceChange = { type: "upsert"; item: SourceItem } | { type: "remove"; uri: string };

/** One document's bytes, read and hashed, as the first stage receives it. */
export interface LoadedDocument {
  readonly item: SourceItem;
  /** sha256 of the bytes, hex: the document's identity across renames and runs. */
  readonly documentId: string;
  readonly bytes: Uint8Array;
}

/** What is known about a document once it has been opened. */
export interface DocumentInfo {
  /** sha256 of the file's bytes, hex. */
  documentId: string;
  uri: string;
  /** File size in bytes. */
  size: number;
  /** Pages in the file (not only the ones extracted when a page range is set). */
  pageCount: number;
  /** Title from the document metadata, when it has a non-empty one. */
  title?: string;
  /** True when the file has a structure tree (a tagged PDF). */
  tagged: boolean;
  /** Set by flag-scans: the document as a whole is a scan (too few characters per page). */
  scan?: boolean;
  /** Set by flag-scans: the pages without selectable text. */
  scanPages?: number[];
}

/** A piece of text drawn in one go, with its geometry in the page's reading frame (PDF points, y up). */
export interface TextRun {
  text: string;
  /** Left end of the baseline. */
  x: number;
  /** Baseline. Larger is higher on the page. */
  y: number;
  /** Advance width. */
  width: number;
  /** Font size (the text's height), in points. */
  fontSize: number;
  fontName: string;
  /** True when the font is monospaced (code, typewriter text). */
  monospace?: boolean;
  /** True when the font's name says it is bold (src/stages/extract/font-traits.ts). */
  bold?: boolean;
  /** Slope of the run's baseline in the page's frame (tan of its tilt), when it is not level. */
  skew?: number;
  /** The content drew a space just before this run (pdf.js reports it as a whitespace item). */
  spaceBefore?: boolean;
  /**
   * A word of its own by its source's account (an OCR engine's word box): it is set apart from
   * the run before it even where the two touch or overlap, which the boxes of neighbouring
   * words often do.
   */
  separateWord?: boolean;
  /** The marked-content id it was painted in (`p10R_mc3`), on tagged pages. */
  mcid?: string;
  /** Painted inside an /Artifact sequence: page furniture by declaration. */
  artifact?: boolean;
  /** Shown by a form field or a free-text annotation (its value, its state), not by the page's content. */
  form?: boolean;
}

/**
 * A run with every field of TextRun, in one order, an absent one undefined (JSON leaves it out):
 * every run made this way has one shape. Fields added only when set gave the corpus's runs 22
 * shapes, so every read of a run's x or width in the layout passes went through V8's generic
 * lookup, and each such read of a number made a new heap object.
 */
export function textRun(fields: TextRun): TextRun {
  return {
    text: fields.text,
    x: fields.x,
    y: fields.y,
    width: fields.width,
    fontSize: fields.fontSize,
    fontName: fields.fontName,
    monospace: fields.monospace,
    bold: fields.bold,
    skew: fields.skew,
    spaceBefore: fields.spaceBefore,
    separateWord: fields.separateWord,
    mcid: fields.mcid,
    artifact: fields.artifact,
    form: fields.form,
  };
}

/** Runs that share a baseline, left to right, joined with word spaces where the gaps say so. */
export interface Line {
  text: string;
  x: number;
  /** Baseline of the line; for a tilted line, where it crosses the left edge of the page's text. */
  y: number;
  width: number;
  /** The size of most of the line's characters. */
  fontSize: number;
  runs: TextRun[];
  /** True when the text runs in another direction than the page's body text (a vertical margin note). */
  offAxis?: boolean;
  /**
   * For an off-axis line: how far (degrees counter-clockwise) the frame its coordinates are given
   * in is turned from the body's, which the page's `toDisplay` maps.
   */
  turn?: number;
  /**
   * The structure role of the line's element on a tagged page (H1…H6, P, LI, Caption…), `TR`
   * for a table row (cells separated by tabs in `text`), `Artifact` for declared furniture.
   */
  role?: string;
  /**
   * A table row's cells, left to right, empty cells included (`text` is them joined by tabs).
   * A cell printed on several lines keeps them apart with a line feed; `text` joins them with a
   * space, or with nothing after a hyphen that breaks a word (the dehyphenate stage decides it).
   */
  cells?: string[];
  /**
   * How many columns each of `cells` spans, when some cell spans more than one (a header over a
   * rate and its interval): the cells it covers are empty.
   */
  cellSpans?: number[];
  /**
   * How many rows each of `cells` spans down, when some cell spans more than one (a stub column's
   * group label over its rows, in a grid whose rules stop under it): the cells it covers in the
   * rows below are empty.
   */
  cellRowSpans?: number[];
  /**
   * Where each of `cells`' words stand, in the page's text frame (as `x` and `y`): [x0, bottom,
   * x1, top], null for an empty cell. The page record's `toDisplay` maps them onto the page.
   */
  cellExtents?: ([number, number, number, number] | null)[];
}

/**
 * A line with every field of Line, an absent one undefined (JSON leaves it out): every line made
 * this way has one shape, as every run made by textRun has (see there). The fields set on table
 * rows come last, in the order the table finder sets them, its `role` after its cells.
 */
export function textLine(fields: Line): Line {
  return {
    text: fields.text,
    x: fields.x,
    y: fields.y,
    width: fields.width,
    fontSize: fields.fontSize,
    runs: fields.runs,
    offAxis: fields.offAxis,
    turn: fields.turn,
    cells: fields.cells,
    cellSpans: fields.cellSpans,
    cellRowSpans: fields.cellRowSpans,
    cellExtents: fields.cellExtents,
    role: fields.role,
  };
}

/**
 * What a paragraph holds: running text is reflowed; `verbatim` keeps its line breaks (code,
 * typewriter listings); `table` keeps one row per line, cells separated by tabs.
 */
export type ParagraphKind = "text" | "verbatim" | "table";

/**
 * What a paragraph is in the document, in the names tagged PDF gives its elements: `H1`…`H6` a
 * heading at that level, `LI` a list item, `Code` a listing, `Table`, `Caption` (a figure's or a
 * table's), `Footnote`. Running text has none. Decided once, where the pages are read
 * (src/text/block-roles.ts, docs/extraction.md §6.5–6.8); every view renders from it.
 */
export type BlockRole = "H1" | "H2" | "H3" | "H4" | "H5" | "H6" | "LI" | "Code" | "Table" | "Caption" | "Footnote";

/** Consecutive lines that form one paragraph: `lines[start]` up to, not including, `lines[end]`. */
export interface Paragraph {
  start: number;
  end: number;
  kind: ParagraphKind;
  /** What the paragraph is (a heading and its level, a list item…); absent for running text. */
  role?: BlockRole;
  /** A list item's depth: 1 for an item of the outermost list, 2 for one nested in it… */
  depth?: number;
  /** On a tagged page, the structure role of the paragraph's element as tagged (P, H, H2, LI, Lbl, Caption…). */
  tag?: string;
  /**
   * Printed right under the paragraph before it, with no more space than between lines: the
   * next item of a list set tight. The text puts it on the next line instead of after a blank
   * line, so the list reads as one block.
   */
  sameBlock?: true;
}

/** How the text of a page is laid out: `reflow` joins the lines of a paragraph, `preserve` keeps every line. */
export type TextMode = "reflow" | "preserve";

/** Which reconstruction decided the order of the page's lines. */
export type OrderSource = "geometry" | "structure";

/** One page of a document, as it travels between stages. */
export interface PageRecord {
  type: "page";
  documentId: string;
  uri: string;
  /** 1-based page number in the file. */
  number: number;
  /** Page size in points, as displayed (after /Rotate). */
  width: number;
  height: number;
  /** The page's /Rotate, in degrees. */
  rotation: number;
  /**
   * The map [a, b, c, d, e, f] from the frame the page's lines and runs are given in (x along
   * the text, y up) to the page as displayed, in points from its top-left corner:
   * (x, y) → (a·x + c·y + e, b·x + d·y + f) (src/text/page-boxes.ts).
   */
  toDisplay?: [number, number, number, number, number, number];
  /** Lines in reading order. */
  lines: Line[];
  paragraphs: Paragraph[];
  /** The page's text in `mode`, rebuilt by any stage that changes lines or paragraphs. */
  text: string;
  /**
   * The page's text as Markdown (src/text/markdown.ts), carried in place of its lines and
   * paragraphs when those are left behind on the way to sinks that do not read them and the
   * document's chunks are Markdown (src/run/process-document.ts). Absent otherwise: the
   * Markdown is rendered from the lines and paragraphs.
   */
  markdown?: string;
  mode: TextMode;
  /** True when the page has no text at all. */
  empty: boolean;
  orderSource: OrderSource;
  /** Why that order: which case of the structure path applied, or why it was declined. */
  orderReason: string;
  /** Characters outside every tagged element (0 on untagged pages, where nothing is tagged). */
  untaggedGlyphs: number;
  /** Most columns side by side on the page, or "uncertain" when the layout could not be told. */
  columns: number | "uncertain";
  /** Images painted on the page, when extraction looked (pages with little or invisible text). */
  images?: number;
  /** True when all of the page's text is drawn invisibly (render mode 3): an OCR layer over a scan. */
  invisibleText?: boolean;
  /** Set by flag-scans: the page has (next to) no selectable text. */
  scan?: boolean;
  /** Why the page was flagged: `image_only`, `no_text`, `stray_text`. */
  scanReason?: string;
  /** Set by flag-scans: the text is an OCR layer, not typeset text. */
  ocrLayer?: boolean;
  /** Set by flag-scans: share of characters that did not map to Unicode (U+FFFD, private use), when high. */
  garbled?: number;
  /** Text flag-scans took off a scanned page (a stamped page number), kept for audit. */
  strayText?: string;
  /** Set by ocr: the page's text was read from its image by OCR (absent: it is the PDF's own text layer). */
  source?: "ocr";
  /** Set by ocr: how the page was read, and how sure the engine was. */
  ocr?: OcrFacts;
  /** Set by strip-furniture: the running header and footer lines taken off the page, and its printed page label. */
  furniture?: Furniture;
  /** Set by dehyphenate: every line-end hyphen it decided, and why. */
  dehyphenated?: Dehyphenation[];
  /** Set by dehyphenate: the page's last paragraph goes on at the top of the next page. */
  continues?: boolean;
}

/** How an OCR page was read (see the ocr stage). */
export interface OcrFacts {
  engine: "tesseract";
  /** The engine's version, as it reports it ("5.3.0"). */
  version: string;
  /** Language packs used, in the order given to the engine. */
  languages: string[];
  /** Resolution the page was rendered at for the engine. */
  dpi: number;
  /** What rendered the page: pdf.js in the worker, or poppler's pdftoppm. */
  renderer: "pdfjs" | "pdftoppm";
  /** Words read. */
  words: number;
  /** Mean of the words' confidences (0–100, one decimal); 0 when no word was read. */
  meanConfidence: number;
  /** Words with a confidence under the stage's `low_confidence` threshold: likely misreadings. */
  lowConfidenceWords: number;
  /** The tilt of the scanned text found on the page (degrees, counter-clockwise), taken out before lines were built. */
  skewDegrees: number;
}

export interface Furniture {
  header: string[];
  footer: string[];
  /** The header and footer lines without their page numbers, and without lines that are only one: the page's running titles. */
  titles?: string[];
  /** The page number as printed ("7", "iv"), when the furniture shows one. */
  pageLabel?: string;
}

export interface Dehyphenation {
  /** The line's end, with its hyphen ("well-"); without one when the PDF's hyphen was lost ("in" + "cluding"). */
  left: string;
  /** The next line's first word ("known"). */
  right: string;
  /** What the text now says ("well-known"). */
  result: string;
  /**
   * The evidence: `soft_hyphen`, `document`, `dictionary`, `case_rule`, or `lost_hyphen` (a line
   * end that only makes a word when joined, in a document whose text layer lost its hyphens).
   */
  reason: string;
}

/**
 * The views of a document's text: `plain` (paragraphs separated by blank lines, tables one row a
 * line with tab-separated cells) and `markdown` (headings, lists, fenced code and pipe tables
 * marked up). Both are rendered from the same lines and paragraphs (src/text/document-view.ts).
 */
export type TextFormat = "plain" | "markdown";

/**
 * A piece of a document's text sized for embedding, made by the chunk stage. Offsets are into
 * the document's text in the chunk's `textFormat`: the texts of its pages that have text, joined
 * by one blank line in page order — what `pagestream extract` prints in that format (see
 * `src/text/document-view.ts`).
 */
/**
 * A rectangle on a displayed page: PDF points from the page's top-left corner, its /Rotate
 * applied (as pdfplumber and `pdftotext -bbox` give them); x0 < x1, y0 (top) < y1 (bottom).
 */
export interface PageBox {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface ChunkRecord {
  type: "chunk";
  /** UUIDv5 of the document id and the chunk index: the same on every run. */
  id: string;
  documentId: string;
  uri: string;
  /** 0-based position in the document. */
  index: number;
  /**
   * Where the chunk's text stands: for every page it touches, the boxes of the lines it covers,
   * merged into one rectangle per column piece, in reading order (src/text/text-boxes.ts). Empty
   * for pages that give no frame (records written before boxes).
   */
  boxes?: PageBox[];
  /** `prefix` followed by the document's text (in `textFormat`) from `charStart` to `charEnd`. */
  text: string;
  /**
   * Text put in front of the document's text: the header row of a table continued from the
   * chunk before (in Markdown, the opening fence of a continued code listing), so that every part
   * of a split table or listing reads on its own; "" otherwise.
   */
  prefix: string;
  /** The view of the document's text the chunk's text and offsets are in (the chunk stage's `text_format`). */
  textFormat: TextFormat;
  /** First and last page (1-based) the chunk's text comes from. */
  pageStart: number;
  pageEnd: number;
  /** Printed page labels of those pages, where the document shows them. */
  pageLabels: string[];
  /** Offsets into the document's text (UTF-16 code units, end exclusive), overlap included. */
  charStart: number;
  charEnd: number;
  /** Tokens in `text`, counted by `tokenizer` with `encoding`. */
  tokenCount: number;
  tokenizer: string;
  encoding: string;
  /** The chunk stage's limits that shaped the chunk (what a re-run must match to give the same chunks). */
  limits: { maxTokens: number; overlapTokens: number; minTokens: number };
  /** The headings in force where the chunk starts (at `charStart`), outermost first: the section its first words belong to. */
  headings: string[];
  /** The headings that start inside the chunk, in document order: every other section it covers. */
  headingsInside: string[];
  /**
   * The running titles of the pages the chunk comes from: their header and footer lines without
   * page numbers (set by strip-furniture), which often say what the text is about (a fund, a
   * contract, a court file) where the body never does.
   */
  runningTitles: string[];
  /** Conditions of the source text a consumer may care about (scan, ocr_layer, columns_uncertain…). */
  flags: string[];
}

/** The records a document's stream carries between stages. */
export type DocRecord = PageRecord | ChunkRecord;

/** Closed set of reasons a document can fail. Sinks and summaries count failures by these. */
export const ERROR_CODES = [
  "empty_file",
  "not_pdf",
  "encrypted",
  "damaged",
  "no_pages",
  "too_large",
  "timeout",
  "resource_limit",
  "not_found",
  "access_denied",
  "read_failed",
  "source_unreachable",
  "worker_lost",
  "stage_failed",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** A document that could not be processed: which file, why (a code), and a sentence for a person. */
export interface ErrorRecord {
  type: "error";
  uri: string;
  code: ErrorCode;
  message: string;
  /** sha256 of the bytes, when they could be read. */
  documentId?: string;
}

/** A warning about a document that was still processed (pages without text, a clamped range…). */
export interface DocumentWarning {
  code: string;
  message: string;
  /** The pages concerned, when it is about pages. */
  pages?: number[];
}

/**
 * Everything the sinks receive about one document. `path` is the item's path under the source's
 * root (SourceItem.path), set by the run when the source gives one.
 */
export type DocumentResult =
  | { status: "ok"; uri: string; path?: string; document: DocumentInfo; pages: PageRecord[]; chunks: ChunkRecord[]; warnings: DocumentWarning[] }
  | { status: "failed"; uri: string; path?: string; error: ErrorRecord; warnings: DocumentWarning[] };
