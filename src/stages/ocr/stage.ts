/**
 * The ocr stage: reads the pages that need it (scans, by default) from their image with
 * Tesseract 5, and gives them text that the rest of the pipeline treats like any other page's:
 * paragraphs from the same assembly as a text layer, furniture and hyphens for the stages
 * after it. It goes after flag-scans, which says which pages are scans, and before
 * strip-furniture, which then sees the running headers and page numbers of OCR pages too.
 *
 * Tesseract and the renderer run as child processes of the extraction worker (see
 * child-process.ts): the run's per-document timeout and memory cap stop them with the worker.
 */
import { z } from "zod";
import { defineStage, type DocumentContext } from "../../core/plugin.js";
import type { DocRecord, DocumentWarning, OcrFacts, PageRecord } from "../../core/records.js";
import { pagesOf, pageWindows } from "../../core/stage-operators.js";
import { withBlockRoles } from "../../text/block-roles.js";
import { documentLineGap, type LayoutOptions } from "../extract/page-layout.js";
import extract, { layoutOptions } from "../extract/stage.js";
import { pageList, PAGES_WITHOUT_TEXT, pagesWithoutTextWarning } from "../flag-scans/scan-verdict.js";
import { confidenceOf } from "./confidence.js";
import { checkOcrEnvironment, type OcrEnvironment } from "./environment.js";
import { layoutOcrWords, ocrPageRecord, type OcrLayout } from "./ocr-page.js";
import { needsOcr, OCR_PAGE_CHOICES } from "./page-selection.js";
import { readPages } from "./page-reading.js";

const options = z.strictObject({
  pages: z
    .enum(OCR_PAGE_CHOICES)
    .default("scans")
    .describe(
      "Which pages to read by OCR. scans: pages without selectable text (flag-scans decides); scans-and-garbled: also pages whose text did not map to Unicode (a broken font encoding); all: every page, replacing its text layer (one you do not trust). A good text layer is otherwise never replaced.",
    ),
  languages: z
    .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, "a Tesseract language code such as eng, deu or chi_sim"))
    .min(1)
    .default(["eng"])
    .describe("Tesseract language packs to read with, most likely first (eng, deu, fra…; Debian packages tesseract-ocr-<code>). More languages read slower."),
  dpi: z
    .int()
    .min(70)
    .max(1200)
    .default(300)
    .describe("Resolution pages are rendered at for OCR. 300 suits body text; small print reads better at 400, at about twice the time."),
  renderer: z
    .enum(["auto", "pdftoppm", "pdfjs"])
    .default("auto")
    .describe("What renders the pages: pdftoppm (Debian poppler-utils, a child process per page) or pdfjs (in the worker, with @napi-rs/canvas); auto takes pdftoppm when installed, else pdfjs."),
  deskew: z.boolean().default(true).describe("Find the tilt of a scan from the words' boxes and take it out before lines are built, so lines and margins are straight."),
  page_timeout_seconds: z
    .number()
    .positive()
    .default(120)
    .describe("Longest rendering or reading one page may take; past it that page is given up with a warning and the others are read. The run's timeout_seconds still bounds the whole document."),
  low_confidence: z
    .number()
    .min(0)
    .max(100)
    .default(60)
    .describe("A word Tesseract is less sure of than this (0–100) counts as a low-confidence word in the page's `ocr` facts; a page whose mean is under it gets a warning."),
});

export type OcrOptions = z.output<typeof options>;

export default defineStage({
  type: "ocr",
  summary: "Reads pages without selectable text (and, if asked, garbled ones) with Tesseract 5, and lays out the words as paragraphs like any other page's.",
  options,
  examples: [{}, { languages: ["eng", "deu"] }, { pages: "scans-and-garbled", dpi: 400, renderer: "pdftoppm", page_timeout_seconds: 60 }],
  async check(opts) {
    await checkOcrEnvironment(opts);
  },
  async create(opts) {
    // Not awaited here: the check starts Tesseract twice, which then overlaps the first
    // document's extraction. The run's `check` has already passed on this machine; should this
    // one fail, the documents that need OCR say why.
    const environment = checkOcrEnvironment(opts);
    environment.catch(() => {});
    // Extraction's own layout settings (its defaults, in the page's mode): OCR words are assembled as text runs are.
    const layouts = { reflow: layoutOptions(extract.options.parse({ mode: "reflow" })), preserve: layoutOptions(extract.options.parse({ mode: "preserve" })) };
    // A window of pages at a time: its pages are read and their headings ranked together (the
    // whole document's when it is one window); what the document's warnings say is carried to its end.
    return {
      apply: (records, context) =>
        records.pipe(
          pageWindows<OcrReport>(context, async ({ records: window, state, last }) => {
            const report = state ?? { pages: [], facts: [], failed: [] };
            const out = await ocrWindow(window, report, opts, environment, layouts, context);
            if (last) reportPages(context, report, opts);
            return { records: out, state: report };
          }),
        ),
    };
  },
});

/** What the windows so far did, for the document's warnings: every page's facts, OCR's figures, the pages it could not read. */
interface OcrReport {
  pages: Pick<PageRecord, "number" | "scan" | "empty" | "source" | "ocr">[];
  facts: OcrFacts[];
  failed: DocumentWarning[];
}

async function ocrWindow(
  all: DocRecord[],
  report: OcrReport,
  opts: OcrOptions,
  pendingEnvironment: Promise<OcrEnvironment>,
  layouts: Record<PageRecord["mode"], LayoutOptions>,
  context: DocumentContext,
): Promise<DocRecord[]> {
  const chosen = pagesOf(all).filter((page) => needsOcr(page, opts.pages));
  const out = chosen.length === 0 ? all : await ocrPages(all, chosen, report, context, opts, pendingEnvironment, layouts);
  for (const { number, scan, empty, source, ocr } of pagesOf(out)) report.pages.push({ number, scan, empty, source, ocr });
  return out;
}

async function ocrPages(
  all: DocRecord[],
  chosen: PageRecord[],
  report: OcrReport,
  context: DocumentContext,
  opts: OcrOptions,
  pendingEnvironment: Promise<OcrEnvironment>,
  layouts: Record<PageRecord["mode"], LayoutOptions>,
): Promise<DocRecord[]> {
  const environment = await pendingEnvironment;
  const readings = await readPages(
    context.input.bytes,
    chosen.map((p) => p.number),
    {
      tesseract: environment.tesseract,
      renderer: environment.renderer,
      languages: opts.languages,
      dpi: opts.dpi,
      pageTimeoutMs: opts.page_timeout_seconds * 1000,
    },
  );

  const laid = new Map<number, { page: PageRecord; layout: OcrLayout; facts: OcrFacts; options: LayoutOptions }>();
  chosen.forEach((page, i) => {
    const reading = readings[i]!;
    if ("error" in reading) {
      report.failed.push({ code: "ocr_failed", message: `page ${page.number} could not be read by OCR: ${reading.error}`, pages: [page.number] });
      return;
    }
    const layout = layouts[page.mode];
    const ocr = layoutOcrWords(page, reading.words, { width: reading.imageWidth, height: reading.imageHeight }, layout, opts.deskew);
    const facts: OcrFacts = {
      engine: "tesseract",
      version: environment.version,
      languages: [...opts.languages],
      dpi: opts.dpi,
      renderer: environment.renderer.name,
      ...confidenceOf(ocr.words, opts.low_confidence),
      skewDegrees: ocr.skewDegrees,
    };
    laid.set(page.number, { page, layout: ocr, facts, options: layout });
    report.facts.push(facts);
  });
  // Like extraction, a sparse OCR page measures paragraph gaps with the document's line gap.
  const fallbackGap = documentLineGap([...laid.values()].map((l) => l.layout.lines));
  // OCR pages' headings are ranked among themselves: a size OCR guessed from word boxes does not
  // compare with a typeset page's.
  const read = withBlockRoles([...laid.values()].map((o) => ocrPageRecord(o.page, o.layout.lines, o.options, fallbackGap, o.facts)));
  const byNumber = new Map(read.map((page) => [page.number, page]));
  return all.map((record) => (record.type === "page" ? (byNumber.get(record.number) ?? record) : record));
}

/**
 * The document's warnings, brought in line with what OCR did: flag-scans' "came out empty" now
 * names only the scans that still are empty, and a note says which pages are OCR text.
 */
function reportPages(context: DocumentContext, { pages, facts, failed }: OcrReport, opts: OcrOptions): void {
  if (facts.length === 0 && failed.length === 0) return;
  const warnings = context.warnings;
  const at = warnings.findIndex((w) => w.code === PAGES_WITHOUT_TEXT);
  const stillEmpty = pages.filter((p) => p.scan && p.empty).map((p) => p.number);
  if (at >= 0) warnings.splice(at, 1, ...(stillEmpty.length ? [pagesWithoutTextWarning(stillEmpty, { readByOcr: true })] : []));
  // A loop, not a spread: one warning per failed page, and a document may have thousands.
  for (const warning of failed) warnings.push(warning);
  const read = pages.filter((p) => p.source === "ocr" && !p.empty);
  if (read.length === 0) return;
  const words = facts.reduce((n, f) => n + f.words, 0);
  const mean = words ? Math.round((facts.reduce((s, f) => s + f.meanConfidence * f.words, 0) / words) * 10) / 10 : 0;
  const numbers = read.map((p) => p.number);
  warnings.push({
    code: "ocr_pages",
    message: `${read.length} page(s) were read by OCR (Tesseract ${facts[0]!.version}, ${opts.languages.join("+")}; mean confidence ${mean}): ${pageList(numbers)}`,
    pages: numbers,
  });
  const doubtful = read.filter((p) => p.ocr!.meanConfidence < opts.low_confidence).map((p) => p.number);
  if (doubtful.length) {
    warnings.push({
      code: "ocr_low_confidence",
      message: `${doubtful.length} page(s) were read by OCR with a mean confidence under ${opts.low_confidence}, so their text is likely wrong in places: ${pageList(doubtful)}`,
      pages: doubtful,
    });
  }
}
