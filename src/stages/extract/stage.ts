import { from } from "rxjs";
import { z } from "zod";
import { DocumentError, describeError } from "../../core/document-error.js";
import { parsePageRange, selectPages, type PageSpan } from "./page-range.js";
import { defineStage, type DocumentContext } from "../../core/plugin.js";
import { windowPagesOf } from "../../core/stage-operators.js";
import type { PageRecord } from "../../core/records.js";
import { textFrameToDisplay, type DisplayMatrix } from "../../text/page-boxes.js";
import { readDrawnSegments, separatePaintedPaths } from "./page-drawing.js";
import { documentLineGap, layoutLines, layoutParagraphs, monospacedShare, type LayoutOptions, type PageLayout, type PageLines } from "./page-layout.js";
import { withBlockRoles } from "../../text/block-roles.js";
import { readOutline } from "./document-outline.js";
import type { OutlineEntry } from "../../text/outline.js";
import type { StructTreeNode } from "./structure-order.js";
import { probePage, type PageProbe } from "./page-probe.js";
import { openPdf } from "./pdfjs-loader.js";
import { forgetReorderings } from "./reading-direction.js";
import type { FontCells, PdfFontStyles } from "./text-runs.js";
import { FontCacheWatch } from "./pdfjs-font-cache.js";
import { formItems, type PdfAnnotation } from "./form-fields.js";
import { renameFonts, type FontNames } from "./font-names.js";
import type { TextItem } from "pdfjs-dist/types/src/display/api.js";

const pageRange = z.string().superRefine((value, ctx) => {
  try {
    parsePageRange(value);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
  }
});

const options = z.strictObject({
  mode: z
    .enum(["reflow", "preserve"])
    .default("reflow")
    .describe("reflow joins the lines of a paragraph (for models, indexes, search); preserve keeps every line break (tables, forms, addresses)."),
  pages: pageRange
    .optional()
    .describe('Pages to extract, e.g. "1-3,7" or "5-". A range past the end is clamped; one with no existing page is an error for that document.'),
  line_tolerance: z
    .number()
    .positive()
    .default(0.5)
    .describe("Runs whose baselines are closer than this × font size are on one line."),
  space_ratio: z
    .number()
    .positive()
    .default(0.25)
    .describe("A horizontal gap between runs wider than this × font size is a word space."),
  paragraph_ratio: z
    .number()
    .positive()
    .default(1.45)
    .describe("A vertical gap wider than this × the page's median line gap starts a paragraph."),
  indent_ratio: z
    .number()
    .positive()
    .default(1)
    .describe("A first line indented by more than this × font size starts a paragraph (LaTeX-style paragraphs)."),
  reading_order: z
    .enum(["auto", "structure", "geometry"])
    .default("auto")
    .describe(
      "auto follows a tagged page's structure tree when at least three quarters of the page's characters are in it (untagged × 4 ≤ all), else geometry; structure follows any tree there is; geometry never does.",
    ),
  column_gap_ratio: z
    .number()
    .positive()
    .default(0.7)
    .describe("A gap wider than this × font size inside a line may separate columns or table cells; columns and tables are then confirmed by alignment down the page."),
  listing_line_numbers: z
    .enum(["drop", "keep"])
    .default("drop")
    .describe("The line numbers printed beside a code listing (1, 2, 3… left of monospaced code): drop leaves the code as it is; keep prints them. Numbered lines of proportional text (transcripts) are always kept."),
  expand_ligatures: z.boolean().default(true).describe("Write ligature characters (ﬁ, ﬂ, ﬀ…) as their letters."),
  remove_soft_hyphens: z
    .boolean()
    .default(true)
    .describe("Remove soft hyphens (U+00AD); one at a line end joins its word in reflow mode."),
  collapse_letter_spacing: z
    .boolean()
    .default(true)
    .describe('Rewrite letter-spaced words ("A N N U A L") as words.'),
  password: z
    .string()
    .optional()
    .describe("Password for documents that need one to open. Documents that need another one fail with `encrypted`."),
});

export type ExtractOptions = z.output<typeof options>;

export default defineStage({
  type: "extract",
  input: "document",
  summary: "Reads each page with pdf.js and rebuilds words, lines and paragraphs from the text's geometry.",
  options,
  examples: [{ mode: "reflow" }, { mode: "preserve", pages: "2-4" }, { paragraph_ratio: 1.3, space_ratio: 0.2 }],
  create(opts) {
    const spans = opts.pages === undefined ? undefined : parsePageRange(opts.pages);
    const layout = layoutOptions(opts);
    return { apply: (_records, context) => from(extractPages(context, spans, layout, opts.password)) };
  },
});

export function layoutOptions(opts: ExtractOptions): LayoutOptions {
  return {
    mode: opts.mode,
    lineTolerance: opts.line_tolerance,
    spaceRatio: opts.space_ratio,
    paragraphRatio: opts.paragraph_ratio,
    indentRatio: opts.indent_ratio,
    expandLigatures: opts.expand_ligatures,
    removeSoftHyphens: opts.remove_soft_hyphens,
    collapseLetterSpacing: opts.collapse_letter_spacing,
    readingOrder: opts.reading_order,
    gutterRatio: opts.column_gap_ratio,
    dropListingLineNumbers: opts.listing_line_numbers === "drop",
  };
}

async function* extractPages(
  context: DocumentContext,
  spans: PageSpan[] | undefined,
  layout: LayoutOptions,
  password: string | undefined,
): AsyncGenerator<PageRecord> {
  const { input } = context;
  forgetReorderings();
  let pdf = await openPdf(input.bytes, { password, forText: true });
  try {
    const pageCount = pdf.numPages;
    if (pageCount === 0) throw new DocumentError("no_pages", "the document has no pages (its page tree is empty)");
    const [metadata, markInfo] = await Promise.all([
      pdf.getMetadata().catch(() => undefined),
      pdf.getMarkInfo().catch(() => null),
    ]);
    const title = (metadata?.info as { Title?: unknown } | undefined)?.Title;
    if ((metadata?.info as { IsXFAPresent?: unknown } | undefined)?.IsXFAPresent === true) {
      context.warnings.push({
        code: "xfa_form",
        message: "the document is an XFA form: its static pages (and their AcroForm fields) were read, not the XFA form itself, which may show other fields or values",
      });
    }
    context.document = {
      documentId: input.documentId,
      uri: input.item.uri,
      size: input.bytes.length,
      pageCount,
      ...(typeof title === "string" && title.trim() ? { title: title.trim() } : {}),
      tagged: isMarked(markInfo),
    };
    const numbers = selectPages(spans, pageCount);
    if (numbers.length === 0) {
      throw new DocumentError("no_pages", `None of the requested pages exist in this document: it has ${pageCount} page(s).`);
    }
    if (numbers.length > context.limits.maxPages) {
      throw new DocumentError("too_large", `the document has ${numbers.length} pages to read, more than max_pages (${context.limits.maxPages})`);
    }
    context.lastPage = numbers.at(-1);
    // Lines first, page by page; paragraphs once every page of a window is read, so that a page
    // with too few lines to measure its own line gap can use the window's. A window is the whole
    // document up to windowPagesOf's pages; a longer one is laid out a window at a time, so what
    // is held does not grow with its length (~45 KB a page before layout).
    const fonts: DocumentFonts = { names: new Map(), cells: new Map(), cache: new FontCacheWatch() };
    const size = windowPagesOf(context.limits);
    let pagesRead = 0;
    let anyPageRead = false;
    let firstFailure: string | undefined;
    let outline: OutlineEntry[] | undefined;
    for (let at = 0; at < numbers.length; at += size) {
      if (at > 0) {
        // pdf.js keeps every page it has read (its page maps and parsed objects, ~6 KB a page,
        // on both sides of its API), and cleanup() does not release them: a window after the
        // first reads from the document opened afresh, so what is held stays one window's.
        // Its fonts get new ids, so the monospaced cells measured under the old ones go.
        await pdf.loadingTask.destroy();
        pdf = await openPdf(input.bytes, { password, forText: true });
        fonts.cells.clear();
        fonts.cache.emptied();
      }
      const read: { number: number; page?: ReadPage; error?: string }[] = [];
      for (const number of numbers.slice(at, at + size)) {
        try {
          read.push({ number, page: await readPage(pdf, number, layout, fonts) });
          anyPageRead = true;
          if (fonts.cache.holdsFontsOfPast) {
            await pdf.cleanup();
            fonts.cache.emptied();
          }
          context.pagesRead?.(++pagesRead);
        } catch (err) {
          // One unreadable page (a cycle in its resources, runaway nesting) must not cost the
          // others: it is reported and comes out empty.
          read.push({ number, error: describeError(err) });
          pagesRead++;
          firstFailure ??= describeError(err);
          context.warnings.push({ code: "page_unreadable", message: `page ${number} could not be read: ${describeError(err)}`, pages: [number] });
        }
      }
      if (!anyPageRead && at + size >= numbers.length) throw new DocumentError("damaged", `no page could be read: ${firstFailure}`);
      const fallbackGap = documentLineGap(read.flatMap((r) => (r.page ? [r.page.lines] : [])));
      const typewriterDocument = monospacedShare(read.flatMap((r) => (r.page ? [r.page.lines] : []))) >= TYPEWRITER_SHARE;
      // Roles are decided over the window (headings are ranked by their looks against every
      // page's), so every page of it is laid out before one is given.
      outline ??= await readOutline(pdf);
      const laid = withBlockRoles(
        read.map(({ number, page }) => ({ number, ...(page ? layoutParagraphs(page.lines, { ...layout, typewriterDocument }, fallbackGap) : { lines: [], paragraphs: [], text: "" }) })),
        { outline },
      );
      for (const [i, { number, page }] of read.entries()) yield pageRecord(context, number, layout, page, laid[i]!);
    }
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

type PdfDocument = Awaited<ReturnType<typeof openPdf>>;

interface ReadPage {
  lines: PageLines;
  width: number;
  height: number;
  rotation: number;
  toDisplay: DisplayMatrix;
  probe?: PageProbe;
}

/**
 * The catalog's MarkInfo says the document is tagged. pdf.js's types promise an object of flags;
 * pdf.js 6 resolves a Map of them.
 */
function isMarked(markInfo: unknown): boolean {
  if (markInfo instanceof Map) return markInfo.get("Marked") === true;
  return (markInfo as { Marked?: unknown } | null | undefined)?.Marked === true;
}

/** A document with at least this share of its characters monospaced is typewritten throughout (docs/extraction.md §5.9). */
const TYPEWRITER_SHARE = 0.5;

/**
 * Pages with fewer characters than this get a look at their images: flag-scans' default
 * min_chars_per_page, so every page it may call a scan has its images counted (docs/extraction.md §7.3).
 */
const SPARSE_PAGE_CHARS = 12;

/** What the pages of a document learn about its fonts, in page order: their names in records, which are fixed-pitch, which pdf.js holds. */
interface DocumentFonts {
  names: FontNames;
  cells: FontCells;
  /** What pdf.js's font cache holds, to empty it when pages no longer use it. */
  cache: FontCacheWatch;
}

/** Reads and lays out a page; called page after page, in order. */
async function readPage(pdf: PdfDocument, number: number, layout: LayoutOptions, fonts: DocumentFonts): Promise<ReadPage> {
  const page = await pdf.getPage(number);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent({ includeMarkedContent: true });
    const { items: textItems, paths } = separatePaintedPaths(content.items);
    fonts.cache.pageRead(Object.keys(content.styles));
    // Form values and free-text annotations are drawn by annotations, not by the content.
    const annotations = (await page.getAnnotations({ intent: "display" }).catch(() => [])) as PdfAnnotation[];
    const items = annotations.length ? [...textItems, ...formItems(annotations, textItems.filter((it): it is TextItem => "str" in it))] : textItems;
    // The structure tree is only fetched for pages that mark content with MCIDs.
    const tagged = layout.readingOrder !== "geometry" && items.some((it) => "id" in it && it.id);
    const tree = tagged ? ((await page.getStructTree().catch(() => null)) as StructTreeNode | null) : null;
    const frame = { width: viewport.width, height: viewport.height };
    const reading = layoutLines(items, content.styles as PdfFontStyles, tree, layout, frame, fonts.cells);
    // A table found from the words alone is found with the rules the page draws.
    const segments = reading.hasGeometricTable ? await readDrawnSegments(page, paths).catch(() => []) : [];
    const lines = segments.length ? reading.withRules(segments) : reading.plain();
    renameFonts(lines.sections, fonts.names, content.styles as PdfFontStyles);
    const probe = lines.chars < SPARSE_PAGE_CHARS || lines.ocrSuspect ? await probePage(page).catch(() => undefined) : undefined;
    const toDisplay = textFrameToDisplay(viewport.transform, lines.angle);
    return { lines, width: viewport.width, height: viewport.height, rotation: page.rotate, toDisplay, ...(probe ? { probe } : {}) };
  } finally {
    page.cleanup();
  }
}

/** The record of a page; an unreadable page (no `read`) is an empty one. */
function pageRecord(context: DocumentContext, number: number, layout: LayoutOptions, read: ReadPage | undefined, { lines, paragraphs, text }: PageLayout): PageRecord {
  return {
    type: "page",
    documentId: context.input.documentId,
    uri: context.input.item.uri,
    number,
    width: round(read?.width ?? 0),
    height: round(read?.height ?? 0),
    rotation: read?.rotation ?? 0,
    ...(read ? { toDisplay: read.toDisplay } : {}),
    lines,
    paragraphs,
    text,
    mode: layout.mode,
    empty: text.length === 0,
    orderSource: read?.lines.orderSource ?? "geometry",
    orderReason: read?.lines.orderReason ?? "the page could not be read",
    untaggedGlyphs: read?.lines.untaggedGlyphs ?? 0,
    columns: read?.lines.columns ?? 1,
    ...(read?.probe ? { images: read.probe.images, ...(read.probe.invisibleText ? { invisibleText: true } : {}) } : {}),
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
