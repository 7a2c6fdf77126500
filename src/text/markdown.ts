/**
 * A page as Markdown, in the CommonMark and GFM conventions RAG tools parse (LangChain's
 * MarkdownHeaderTextSplitter, LlamaIndex's MarkdownNodeParser), rendered from the same lines and
 * paragraphs as the plain text: one rule per paragraph role, escaping in one place
 * (docs/extraction.md §6.9).
 * - a heading (H1…H6): an ATX heading, `#` to `######`, its lines joined;
 * - a list item (LI): `- ` for a bullet or dash, the printed number for `1.` and `1)`, and `- `
 *   before any other printed marker (`- a)`, `- (iv)`, `- [12]`), which Markdown has no list
 *   for; nested by its depth under the item it belongs to;
 * - code (a verbatim paragraph): a fenced block, its lines and relative indentation kept;
 * - a table: a GFM pipe table, one row a line, `|` in a cell escaped, a wrapped cell joined; the
 *   first row is its header when it reads as one (table-header.ts), else the header is empty;
 * - anything else (running text, a caption, a footnote): the text as the plain view prints it,
 *   with what would start another Markdown block at a line's start escaped (`\#`, `1\.`, `\-`).
 * Paragraphs are separated by one blank line, the items of a list set tight by a line break.
 * Nothing is invented: no emphasis, no links, no marker the page does not print.
 */
import type { Line, Paragraph, TextMode } from "../core/records.js";
import { roleLevel } from "./block-roles.js";
import { startsWithListMarker } from "./list-markers.js";
import { paragraphText, reflowLines, renderVerbatim } from "./page-text.js";
import { tableHasHeader } from "./table-header.js";

/** What a part of a view is, for the chunker: where it may be cut and how strongly. */
export type BlockKind = "text" | "heading" | "table" | "code";

/** A paragraph as a view shows it, located in the view's text (end exclusive, white space trimmed). */
export interface ViewBlock {
  kind: BlockKind;
  start: number;
  end: number;
  /** 1–6, for a heading. */
  level?: number;
  /** A heading's text, on one line and without markup: what heading paths name it by. */
  heading?: string;
}

export interface RenderedPage {
  text: string;
  blocks: ViewBlock[];
}

/** The Markdown separator row under a table's header: what a chunk continuing the table repeats with it. */
export const MARKDOWN_SEPARATOR = /^\|(?: --- \|)+$/;

/** The page's paragraphs as Markdown, with where each one is. */
export function renderPageMarkdown(lines: readonly Line[], paragraphs: readonly Paragraph[], mode: TextMode): RenderedPage {
  let text = "";
  const blocks: ViewBlock[] = [];
  const list = new ListIndents();
  for (const paragraph of paragraphs) {
    const own = lines.slice(paragraph.start, paragraph.end);
    const rendered = renderParagraph(own, paragraph, mode, list);
    if (!rendered) continue;
    if (text) text += paragraph.sameBlock && paragraph.role === "LI" ? "\n" : "\n\n";
    blocks.push({ ...rendered.block, start: text.length, end: text.length + rendered.markdown.length });
    text += rendered.markdown;
  }
  return { text, blocks };
}

function renderParagraph(lines: readonly Line[], paragraph: Paragraph, mode: TextMode, list: ListIndents): { markdown: string; block: Omit<ViewBlock, "start" | "end"> } | undefined {
  if (paragraph.role !== "LI") list.reset();
  const level = roleLevel(paragraph.role);
  if (level !== undefined) {
    const heading = reflowLines(lines);
    return heading ? { markdown: `${"#".repeat(level)} ${escapeHeading(escapeInline(heading))}`, block: { kind: "heading", level, heading } } : undefined;
  }
  if (paragraph.kind === "verbatim") {
    const code = renderVerbatim(lines);
    return code.trim() ? { markdown: fence(code), block: { kind: "code" } } : undefined;
  }
  if (paragraph.kind === "table") {
    const table = markdownTable(lines);
    return table ? { markdown: table, block: { kind: "table" } } : undefined;
  }
  const plain = paragraphText(lines, { ...paragraph, start: 0, end: lines.length }, mode);
  if (!plain) return undefined;
  if (paragraph.role === "LI") return { markdown: list.item(plain, paragraph.depth ?? 1), block: { kind: "text" } };
  return { markdown: plain.split("\n").map(escapeBlockStart).join("\n"), block: { kind: "text" } };
}

// ---- list items

/** A number with a point or a bracket: a CommonMark ordered-list marker as printed. */
const ORDERED = /^\d{1,9}[.)]\s+/u;

/**
 * The indentation of nested list items: an item at depth d stands where the text of the item at
 * depth d − 1 before it starts (CommonMark nests by the parent's content column, 2 for `- `, 3 for
 * `1. `, 4 for `10. `).
 */
class ListIndents {
  /** The content column of the last item at each depth (index 0: depth 1). */
  private columns: number[] = [];

  reset(): void {
    this.columns = [];
  }

  item(text: string, depth: number): string {
    const depthIndex = Math.min(Math.max(1, depth), this.columns.length + 1) - 1;
    const indent = depthIndex > 0 ? this.columns[depthIndex - 1]! : 0;
    const [first = "", ...rest] = text.split("\n");
    const { marker, body } = listMarker(first);
    const column = indent + marker.length;
    this.columns = [...this.columns.slice(0, depthIndex), column];
    const pad = " ".repeat(column);
    return [" ".repeat(indent) + marker + body, ...rest.map((l) => pad + l)].join("\n");
  }
}

/**
 * The Markdown marker for an item's first line, and the text after it. A number with a point or a
 * bracket is its own marker (`1.`, `1)`); any other printed marker (a bullet, a dash, a letter,
 * `(iv)`, `[12]`) stays in the text after `- `, so the item still says what the page prints.
 */
function listMarker(line: string): { marker: string; body: string } {
  const ordered = ORDERED.exec(line);
  if (ordered) return { marker: ordered[0].trimEnd() + " ", body: escapeInline(line.slice(ordered[0].length)) };
  if (startsWithListMarker(line)) return { marker: "- ", body: escapeInline(line) };
  return { marker: "- ", body: escapeBlockStart(line) };
}

// ---- code

/** A fenced code block; the fence is longer than any run of backticks starting a line of the code. */
function fence(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/^\s*(`{3,})/gmu)) longest = Math.max(longest, m[1]!.length);
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}\n${code}\n${ticks}`;
}

// ---- tables

/** A table paragraph's rows (cells separated by tabs) as a GFM pipe table. */
function markdownTable(lines: readonly Line[]): string {
  const rows = lines.map((l) => l.text.split("\t").map(tableCell));
  if (rows.length === 0) return "";
  const columns = Math.max(...rows.map((r) => r.length));
  const row = (cells: readonly string[]) => `| ${[...cells, ...Array<string>(columns - cells.length).fill("")].join(" | ")} |`;
  const separator = `|${" --- |".repeat(columns)}`;
  const [first, ...rest] = rows;
  const header = tableHasHeader(lines) ? [row(first!), separator] : [row([]), separator, row(first!)];
  return [...header, ...rest.map(row)].join("\n");
}

/** A cell's text on one line, its pipes escaped. */
function tableCell(text: string): string {
  return escapeInline(text.replace(/\s+/gu, " ").trim().replace(/\\/gu, "\\\\").replace(/\|/gu, "\\|"));
}

// ---- escaping

/** What would open another block at a line's start in CommonMark/GFM. */
const BLOCK_START = /^(?:#{1,6}(?=\s|$)|[-+*](?=\s|$)|\d{1,9}[.)](?=\s|$)|>|`{3,}|~{3,}|=+\s*$|\||<[A-Za-z!?/])/u;
/** A thematic break: three or more of one of - * _, spaces between allowed. */
const THEMATIC_BREAK = /^(?:([-*_])\s*){3,}$/u;

/**
 * A line of text as Markdown shows it as it is: a backslash before what would make it another
 * block (a heading, a list item, a quote, a fence, a table row) and before the emphasis and
 * code-span characters that could pair up (escapeInline).
 */
export function escapeBlockStart(line: string): string {
  const text = escapeInline(line);
  const m = BLOCK_START.exec(text);
  if (m) {
    const digits = /^\d+/u.exec(m[0]);
    return digits ? text.slice(0, digits[0].length) + "\\" + text.slice(digits[0].length) : "\\" + text;
  }
  return THEMATIC_BREAK.test(line) ? "\\" + line : text;
}

/**
 * `*`, `_` and backquotes escaped where Markdown would read them as markup, and only there, so that
 * text keeps its look ("file_name", "window.__init", "5 * 3" stay as they are): a run of `*` or
 * `_` that can open emphasis followed by one that can close it (CommonMark's flanking rules: a
 * masked number "***-**-0860"), a run of three or more underscores (a form's blank "_________",
 * which a lenient reader takes for a rule or emphasis), and backquote runs that pair into a code
 * span.
 */
export function escapeInline(line: string): string {
  let text = line;
  for (const ch of ["*", "_"] as const) if (pairsAsEmphasis(text, ch) || (ch === "_" && /_{3,}/u.test(text))) text = text.replaceAll(ch, `\\${ch}`);
  const ticks = [...text.matchAll(/`+/gu)].map((m) => m[0].length);
  if (ticks.some((n, i) => ticks.indexOf(n) !== i)) text = text.replaceAll("`", "\\`");
  return text;
}

const WHITE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;

/** A run of `ch` that can open emphasis comes before one that can close it (CommonMark 0.31 §6.2). */
function pairsAsEmphasis(text: string, ch: "*" | "_"): boolean {
  if (!text.includes(ch)) return false;
  let opener = false;
  for (const m of text.matchAll(ch === "*" ? /\*+/gu : /_+/gu)) {
    const before = m.index === 0 ? " " : text[m.index - 1]!;
    const after = text[m.index + m[0].length] ?? " ";
    const left = !WHITE.test(after) && (!PUNCTUATION.test(after) || WHITE.test(before) || PUNCTUATION.test(before));
    const right = !WHITE.test(before) && (!PUNCTUATION.test(before) || WHITE.test(after) || PUNCTUATION.test(after));
    const opens = ch === "*" ? left : left && (!right || PUNCTUATION.test(before));
    const closes = ch === "*" ? right : right && (!left || PUNCTUATION.test(after));
    if (closes && opener) return true;
    if (opens) opener = true;
  }
  return false;
}

/** A heading's text: a closing run of `#` (which ATX would drop) escaped. */
function escapeHeading(text: string): string {
  return text.replace(/(\s)(#+)$/u, "$1\\$2");
}
