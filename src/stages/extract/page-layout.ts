/**
 * A page's text items → lines in reading order → paragraphs → text.
 *
 * Phase one (per page) decides the order. A tagged page whose structure tree claims most of its
 * characters is read in structure order (structure-order.ts), its paragraphs and table cells
 * given by the tags; any other page is read geometrically: lines by baseline, columns found
 * (column-layout.ts), tables found (table-detection.ts). Either way the result is a list of
 * sections: paragraphs already decided (a tagged P, a table) or a flow of lines whose
 * paragraphs geometry decides.
 *
 * Phase two (once the document's pages are read) finds those paragraphs, with the document's
 * line gap for pages too sparse to measure their own, and renders the text.
 *
 * Text in another direction than the body (a vertical margin note) always follows the body as
 * its own flow, so it can never break into a sentence. Pure: tests feed it items directly.
 */
import { nonSpaceChars } from "../../text/non-space-chars.js";
import { renderPageText } from "../../text/page-text.js";
import { textLine, textRun, type Line, type Paragraph, type ParagraphKind, type TextMode, type TextRun } from "../../core/records.js";
import { crossesGrid, orderByColumns, textBeside, type Box, type ColumnOptions, type PageFrame } from "./column-layout.js";
import { buildLine, groupLines, type LineGroupingOptions } from "./line-grouping.js";
import { stripListingLineNumbers } from "./listing-line-numbers.js";
import { markItems } from "./marked-content.js";
import { lineGaps, measurePageGaps, segmentParagraphs, typicalLineGap, type ParagraphOptions } from "./paragraphs.js";
import { readStructureOrder, type StructTreeNode, type StructureOrder } from "./structure-order.js";
import { tablesOf, type TableRange } from "./table-detection.js";
import { axisRulings, NO_TABLE_RULINGS, tableRulings, type Segment, type TableRulings } from "./rulings.js";
import { taggedTableRows } from "./tagged-table.js";
import { normalizeLineText, type NormalizationOptions } from "./text-normalization.js";
import { orientRuns, type FontCells, type PdfFontStyles } from "./text-runs.js";

/** `auto` follows a tagged page's structure tree when it claims most of the page; the others force one path. */
export type ReadingOrder = "auto" | "structure" | "geometry";

export interface LayoutOptions extends LineGroupingOptions, ParagraphOptions, NormalizationOptions, ColumnOptions {
  mode: TextMode;
  readingOrder: ReadingOrder;
  /** Take the printed line numbers off code listings (listing-line-numbers.ts). */
  dropListingLineNumbers: boolean;
}

/** Lines whose paragraph is known (a tagged element, a table), or a flow that geometry splits. */
export type Section =
  | { kind: "paragraph"; lines: Line[]; paragraph: ParagraphKind; role?: string }
  | { kind: "flow"; lines: Line[]; flowBreaks: ReadonlySet<number> };

export interface PageLines {
  sections: Section[];
  /** Non-space characters on the page. */
  chars: number;
  /** The text looks like an OCR engine's layer (see OrientedRuns.stretchedFixedPitch). */
  ocrSuspect: boolean;
  orderSource: "structure" | "geometry";
  orderReason: string;
  untaggedGlyphs: number;
  columns: number | "uncertain";
  /** The angle (degrees counter-clockwise) the body's text runs at: its runs' coordinates are turned by it (text-runs.ts). */
  angle: number;
}

export interface PageLayout {
  lines: Line[];
  paragraphs: Paragraph[];
  text: string;
}

/**
 * Untagged characters × this may be at most the page's characters for the tree to be trusted: a
 * page number or a watermark outside the tree is normal, a quarter of the page is not (docs/extraction.md §4.2).
 */
const UNTAGGED_TRUST_FACTOR = 4;

/** Roles whose element is one paragraph; other elements with direct content are split by geometry. */
const PARAGRAPH_ROLES = new Set(["P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "LI", "Lbl", "LBody", "Caption", "TOCI", "Note", "BibEntry", "Title", "FENote"]);

/**
 * A page laid out up to its tables (docs/extraction.md §4.4.1). A table found from the words
 * alone (not given by the page's tags) may have its cells parted by the rules the page draws,
 * and then only the tables are found again, with those rules, from the same lines, columns and
 * tagged blocks. The reading without rules is made only when it is the answer: on a page with
 * such a table and rules to weigh, its tables would be thrown away.
 */
export interface PageReading {
  /** The page holds a table found from its words alone (known from the first such table). */
  readonly hasGeometricTable: boolean;
  /** The page read without rules. */
  plain(): PageLines;
  /** The page read with the straight lines it draws (in user space) as the rules of its tables. */
  withRules(segments: readonly Segment[]): PageLines;
}

/** Phase one: items (with marked content) → sections in reading order, tables to be found with or without rules. */
export function layoutLines(
  items: readonly unknown[],
  styles: PdfFontStyles,
  structTree: StructTreeNode | null | undefined,
  options: LayoutOptions,
  frame?: PageFrame,
  /** The document's fixed-pitch evidence from the pages before (text-runs.ts); this page's is added. */
  fontCells?: FontCells,
): PageReading {
  const { angle, body, offAxis, offAxisAngles, stretchedFixedPitch } = orientRuns(markItems(items), styles, fontCells);
  const facts = { chars: countChars([...body, ...offAxis.flat()]), ocrSuspect: stretchedFixedPitch, angle };
  // Each off-axis group's lines say how far their frame is turned from the body's: their boxes need it.
  const tail = offAxis.map((group, g) => flow(groupLines(group, options).map((l) => textLine({ ...l, offAxis: true, turn: offAxisAngles[g]! - angle }))));
  // The page as read with some rules, and the lines whose tables those rules may change.
  const reading = (build: (rulings: TableRulings) => PageLines, geometric: GeometricLines | undefined): PageReading => {
    let plain: PageLines | undefined;
    let hasTable: boolean | undefined;
    return {
      get hasGeometricTable() {
        return (hasTable ??= geometric !== undefined && holdsTable(geometric, options));
      },
      plain: () => (plain ??= build(NO_TABLE_RULINGS)),
      withRules: (segments) => build(tableRulings(axisRulings(segments, angle))),
    };
  };
  const geometric = (reason: string, untaggedGlyphs: number): PageReading => {
    const lines = geometricLines(body, options, frame);
    return reading((rulings) => {
      // The page is cut again with the grids the page draws when the first reading did not see
      // them: a gutter it cut through a grid parted the grid's cells, not columns (the names of
      // a ruled list beside its figures), and text level with a grid outside it was read into
      // its rows (a chart's labels beside the table of its counts).
      const grids = rulings.regions;
      const recut = grids.some((grid) => lines.gutters.some((g) => crossesGrid(g, grid)) || textBeside(lines.lines, grid));
      const page = geometricSections(recut ? geometricLines(body, options, frame, grids) : lines, options, rulings);
      return finish({ ...page, ...facts, sections: [...page.sections, ...tail], orderSource: "geometry", orderReason: reason, untaggedGlyphs }, options);
    }, lines);
  };

  if (options.readingOrder === "geometry") return geometric("geometry was asked for", 0);
  const order = readStructureOrder(structTree);
  if (!order) {
    const marked = body.some((r) => r.mcid);
    return geometric(marked ? "marked content without a structure tree to order it" : "no structure tree", 0);
  }
  const untagged = body.filter((r) => !r.mcid || !order.places.has(r.mcid));
  // Form values and annotations are never in the content the tree tags: they follow it, but
  // say nothing of how much of the page the tree claims.
  const untaggedGlyphs = countChars(untagged.filter((r) => !r.form));
  const total = countChars(body);
  if (options.readingOrder === "auto" && untaggedGlyphs * UNTAGGED_TRUST_FACTOR > total) {
    const share = total ? Math.round((100 * untaggedGlyphs) / total) : 0;
    return geometric(`${share}% of the page's characters are outside the structure tree`, untaggedGlyphs);
  }
  const sections = structureSections(body, order, options);
  const restLines = untagged.length ? geometricLines(untagged, options, frame) : undefined;
  return reading(
    (rulings) =>
      finish(
        {
          ...facts,
          sections: [...sections, ...(restLines ? geometricSections(restLines, options, rulings).sections : []), ...tail],
          orderSource: "structure",
          orderReason: untaggedGlyphs ? `structure tree; ${untaggedGlyphs} untagged characters follow as a geometric tail` : "structure tree",
          untaggedGlyphs,
          columns: 1,
        },
        options,
      ),
    restLines,
  );
}

/**
 * Phase one for words that come with positions but no content stream (an OCR engine's words):
 * the geometric order of an untagged page (lines by baseline, columns, tables) and the same
 * normalisation, so that phase two makes their paragraphs as for any other page.
 */
export function layoutRuns(runs: readonly TextRun[], options: LayoutOptions, orderReason: string): PageLines {
  const page = geometricSections(geometricLines(runs, options), options, NO_TABLE_RULINGS);
  return finish({ ...page, chars: countChars(runs), ocrSuspect: false, angle: 0, orderSource: "geometry", orderReason, untaggedGlyphs: 0 }, options);
}

function countChars(runs: readonly TextRun[]): number {
  let n = 0;
  for (const r of runs) n += nonSpaceChars(r.text);
  return n;
}

function flow(lines: Line[], flowBreaks: ReadonlySet<number> = new Set()): Section {
  return { kind: "flow", lines, flowBreaks };
}

/** The geometric order's lines: rows by baseline, in the order of their columns. */
interface GeometricLines {
  lines: Line[];
  flowBreaks: ReadonlySet<number>;
  blockStarts: ReadonlySet<number>;
  columns: PageLines["columns"];
  /** Where the page was cut into columns and blocks. */
  gutters: readonly Box[];
  /**
   * The lines' tables without rules, each found when first reached and kept: a page asked
   * whether it holds a table and then read without rules finds each table once.
   */
  tablesWithoutRules: Iterable<TableRange>;
}

/**
 * Geometric order, first part: rows by baseline, columns (the page's costly part, done once;
 * again only where a gutter ran through a ruled grid, `grids` then kept whole).
 */
function geometricLines(runs: readonly TextRun[], options: LayoutOptions, frame?: PageFrame, grids: readonly Box[] = []): GeometricLines {
  const rows = groupLines(runs, options);
  const columnOrder = orderByColumns(rows, options, frame, grids);
  const { flowBreaks, columns, blockStarts, gutters } = columnOrder;
  const lines = options.dropListingLineNumbers ? stripListingLineNumbers(columnOrder.lines, options) : columnOrder.lines;
  for (const line of lines) if (line.runs.every((r) => r.artifact)) line.role = "Artifact";
  return { lines, flowBreaks, blockStarts, columns, gutters, tablesWithoutRules: replayable(tablesOf(lines, options, blockStarts, NO_TABLE_RULINGS)) };
}

/** A sequence read from its start as often as asked, each item made once, when first reached. */
function replayable<T>(items: Iterator<T>): Iterable<T> {
  const made: T[] = [];
  let done = false;
  return {
    *[Symbol.iterator]() {
      for (let k = 0; ; k++) {
        if (k === made.length) {
          const next = done ? undefined : items.next();
          if (!next || next.done) {
            done = true;
            return;
          }
          made.push(next.value);
        }
        yield made[k]!;
      }
    },
  };
}

/** Geometric order, second part: tables cut out of the flow, with the rules the page draws if known. */
function geometricSections({ lines, flowBreaks, blockStarts, columns, tablesWithoutRules }: GeometricLines, options: LayoutOptions, rulings: TableRulings): Pick<PageLines, "sections" | "columns"> {
  const sections: Section[] = [];
  let from = 0;
  const pushFlow = (to: number) => {
    if (to <= from) return;
    const breaks = new Set([...flowBreaks].filter((b) => b > from && b < to).map((b) => b - from));
    sections.push(flow(lines.slice(from, to), breaks));
  };
  for (const table of rulings === NO_TABLE_RULINGS ? tablesWithoutRules : tablesOf(lines, options, blockStarts, rulings)) {
    pushFlow(table.start);
    sections.push({ kind: "paragraph", lines: table.rows, paragraph: "table" });
    from = table.end;
  }
  pushFlow(lines.length);
  return { sections, columns };
}

/** Structure order: each block element in logical order, its lines grouped geometrically within it. */
function structureSections(runs: readonly TextRun[], order: StructureOrder, options: LayoutOptions): Section[] {
  const blocks = new Map<number, { first: number; role: string; runs: TextRun[] }>();
  for (const run of runs) {
    const place = run.mcid ? order.places.get(run.mcid) : undefined;
    if (!place) continue;
    const block = blocks.get(place.block) ?? { first: place.order, role: place.role, runs: [] };
    block.first = Math.min(block.first, place.order);
    // A hyphen the producer tagged as a soft hyphen is the typesetter's: it joins its word.
    block.runs.push(place.softHyphen && /^\s*-\s*$/.test(run.text) ? textRun({ ...run, text: "\u00AD" }) : run);
    blocks.set(place.block, block);
  }
  const sections: Section[] = [];
  for (const block of [...blocks.values()].sort((a, b) => a.first - b.first)) {
    const cells = block.runs.filter((r) => order.places.get(r.mcid!)?.cell);
    if (cells.length) {
      sections.push({ kind: "paragraph", lines: taggedTableRows(block.runs, order, options), paragraph: "table", role: "Table" });
      continue;
    }
    const lines = blockLines(block.runs, order, options);
    for (const line of lines) line.role = block.role;
    if (PARAGRAPH_ROLES.has(block.role)) {
      const verbatim = lines.every((l) => l.runs.every((r) => r.monospace));
      sections.push({ kind: "paragraph", lines, paragraph: verbatim ? "verbatim" : "text", role: block.role });
    } else {
      sections.push(flow(lines));
    }
  }
  return sections;
}

/**
 * A block's lines in the tree's order: the runs of each marked-content sequence grouped into
 * lines by geometry, the sequences one after another as the tree lists them, and a sequence that
 * goes on on the line where the one before ended joined to that line. Geometry alone would read
 * a paragraph that a column break splits ("The docu-" at the foot of the left column, "ment just
 * uses…" at the top of the right one) from the top of the page down.
 */
function blockLines(runs: readonly TextRun[], order: StructureOrder, options: LayoutOptions): Line[] {
  const sequences = new Map<string, TextRun[]>();
  for (const run of runs) {
    const sequence = sequences.get(run.mcid!);
    if (sequence) sequence.push(run);
    else sequences.set(run.mcid!, [run]);
  }
  const inOrder = [...sequences].sort(([a], [b]) => order.places.get(a)!.order - order.places.get(b)!.order);
  const lines: Line[] = [];
  for (const [, sequence] of inOrder) {
    const next = groupLines(sequence, options);
    const last = lines[lines.length - 1];
    const first = next[0];
    if (last && first && Math.abs(last.y - first.y) <= options.lineTolerance * Math.max(last.fontSize, first.fontSize)) {
      lines[lines.length - 1] = buildLine([...last.runs, ...first.runs], options);
      next.shift();
    }
    for (const line of next) lines.push(line);
  }
  return lines;
}

/** A line's text as the page keeps it (ligatures, soft hyphens, spaces normalised), or undefined for a line left empty. */
function keptText(line: Line, options: NormalizationOptions): string | undefined {
  const text = normalizeLineText(line.text, options).replace(/^ +| +$/g, "");
  return text.replace(/\t/g, "") ? text : undefined;
}

/** The lines, read without rules, hold a table that the page keeps (a row with text): found up to the first. */
function holdsTable({ tablesWithoutRules }: GeometricLines, options: LayoutOptions): boolean {
  for (const table of tablesWithoutRules) if (table.someRow((row) => keptText(row, options) !== undefined)) return true;
  return false;
}

/** Normalises every line's text (ligatures, soft hyphens, spaces) and drops lines left empty. */
function finish(page: PageLines, options: LayoutOptions): PageLines {
  const sections: Section[] = [];
  for (const section of page.sections) {
    const keep: Line[] = [];
    const breaks = new Set<number>();
    section.lines.forEach((line, i) => {
      const text = keptText(line, options);
      if (text === undefined) return;
      if (section.kind === "flow" && section.flowBreaks.has(i)) breaks.add(keep.length);
      keep.push(textLine({ ...line, text, cells: line.cells ? line.cells.map((c) => normalizeLineText(c, options)) : undefined }));
    });
    if (keep.length === 0) continue;
    sections.push(section.kind === "flow" ? { kind: "flow", lines: keep, flowBreaks: breaks } : { ...section, lines: keep });
  }
  return { ...page, sections };
}

/** Share of the pages' characters set in a monospaced font. */
export function monospacedShare(pages: readonly PageLines[]): number {
  let all = 0;
  let mono = 0;
  for (const page of pages) {
    for (const section of page.sections) {
      for (const line of section.lines) {
        for (const run of line.runs) {
          const n = run.text.length;
          all += n;
          if (run.monospace) mono += n;
        }
      }
    }
  }
  return all ? mono / all : 0;
}

/** The document's line gap, for pages with too few lines to measure their own. */
export function documentLineGap(pages: readonly PageLines[]): number {
  return typicalLineGap(pages.flatMap((p) => p.sections.flatMap((s) => (s.kind === "flow" ? lineGaps(s.lines, s.flowBreaks) : []))));
}

/** Phase two: paragraphs and text. */
export function layoutParagraphs(page: PageLines, options: LayoutOptions, fallbackGap = 0): PageLayout {
  const lines: Line[] = [];
  const paragraphs: Paragraph[] = [];
  const gaps = measurePageGaps(page.sections.filter((s) => s.kind === "flow"), options, fallbackGap);
  for (const section of page.sections) {
    const offset = lines.length;
    for (const line of section.lines) lines.push(line);
    if (section.kind === "paragraph") {
      paragraphs.push({ start: offset, end: lines.length, kind: section.paragraph, ...(section.role ? { tag: section.role } : {}) });
      continue;
    }
    for (const p of segmentParagraphs(section.lines, options, fallbackGap, section.flowBreaks, gaps)) {
      const tag = section.lines[p.start]?.role;
      paragraphs.push({ ...p, start: p.start + offset, end: p.end + offset, ...(tag ? { tag } : {}) });
    }
  }
  return { lines, paragraphs, text: renderPageText(lines, paragraphs, options.mode) };
}

