/**
 * `pagestream extract`: one PDF through the default pipeline's stages, text to stdout (what the
 * corpus scorer reads), warnings and errors to stderr; several PDFs, a folder, or `--out-dir`
 * go to `extract-many.ts`, through one worker. The file is extracted in the same capped
 * worker process as a run's documents (timeout, memory cap, page and size limits, with the same
 * names as flags), so a hostile file on the command line is stopped as it would be in a run.
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { EXIT } from "../exit-codes.js";
import type { DocumentResult, PageRecord, TextFormat } from "../core/records.js";
import { wireKeys } from "../core/wire-keys.js";
import { DEFAULT_LIMITS, WORKER_BYTES_PER_FILE_BYTE } from "../pipeline/limits.js";
import { FileWorker, splitFile, type FileLimits } from "../run/file-worker.js";
import type { ComponentConfig } from "../run/worker-protocol.js";
import { documentViewText, pageViewText } from "../text/document-view.js";
import { lineBox, mergeBoxes } from "../text/page-boxes.js";
import { documentTables, tableCells, tableCsv, type DocumentTable } from "../text/tables.js";
import type { EarlyWorker } from "./early-extraction-worker.js";
import { escapeControls } from "./escape-controls.js";

export interface ExtractFlags {
  mode: "reflow" | "preserve";
  pages?: string;
  markers?: boolean;
  format: "text" | "markdown" | "json" | "csv";
  /** Also write each table as a CSV file into this folder. */
  tables?: string;
  password?: string;
  /** commander's `--no-strip-furniture`. */
  stripFurniture?: boolean;
  /** commander's `--no-dehyphenate`. */
  dehyphenate?: boolean;
  /** Read pages without selectable text by OCR (the ocr stage after flag-scans). */
  ocr?: boolean;
  /** `--ocr-languages eng,deu`. */
  ocrLanguages?: string;
  timeoutSeconds?: number;
  maxWorkerMemoryMb?: number;
  maxPages?: number;
  maxFileBytes?: number;
  /** Write each input's output as a file of its own in this folder, nothing on stdout. */
  outDir?: string;
}

/** A message on stderr, control characters escaped (a file name or a PDF's text may carry any). */
export const say = (message: string) => process.stderr.write(`pagestream: ${escapeControls(message)}\n`);

/**
 * One file argument without `--out-dir` prints as it always has (scripts and the corpus scorer
 * read it); anything else is a batch. `early`: a worker the command line forked before it was
 * parsed; used when its memory cap is the one asked for.
 */
export async function extractCommand(files: readonly string[], flags: ExtractFlags, early?: EarlyWorker): Promise<number> {
  const [first] = files;
  if (files.length === 1 && flags.outDir === undefined && !(await stat(first!).catch(() => undefined))?.isDirectory()) return extractFile(first!, flags, early);
  const { extractMany } = await import("./extract-many.js");
  return extractMany(files, flags, early);
}

async function extractFile(file: string, flags: ExtractFlags, early?: EarlyWorker): Promise<number> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) {
    say(`${file}: no such file`);
    early?.child.kill("SIGKILL");
    return EXIT.usage;
  }
  const path = resolve(file);
  const { folder, name } = splitFile(path);
  const worker = await extractionWorker(flags, folder, early);
  if (typeof worker === "number") return worker;
  try {
    const result = await worker.process(name, path);
    for (const w of result.warnings) say(`${file}: ${w.message}`);
    if (result.status === "failed") {
      say(`${file}: ${result.error.code}: ${result.error.message}`);
      return EXIT.failedDocuments;
    }
    const tables = flags.tables !== undefined || flags.format !== "text" ? documentTables(result.pages) : [];
    if (flags.tables !== undefined) await writeTables(flags.tables, basename(name, extname(name)), name, tables);
    process.stdout.write(flags.format === "json" ? JSON.stringify(jsonOutput(result, tables), null, 2) + "\n" : renderedOutput(result, tables, flags));
    return EXIT.ok;
  } finally {
    // The result is out: the command ends now, and the worker exits as it sees it go.
    worker.release();
  }
}

/**
 * The capped worker an extraction runs in, reading under `folder`: started at once, so it loads
 * pdf.js while the options are checked, and handed the stages once they are; or the exit code
 * of options refused (said why). `early`: a worker forked before the command line was parsed,
 * adopted when its memory cap is the one asked for.
 */
export async function extractionWorker(flags: ExtractFlags, folder: string, early?: EarlyWorker): Promise<FileWorker | number> {
  const limits = fileLimits(flags);
  const adopted = early?.maxWorkerMemoryMb === limits.max_worker_memory_mb ? early.child : undefined;
  if (early && !adopted) early.child.kill("SIGKILL");
  let checked!: (stages: ComponentConfig[]) => void;
  let refused!: (err: Error) => void;
  const stages = new Promise<ComponentConfig[]>((res, rej) => ((checked = res), (refused = rej)));
  const worker = new FileWorker({ folder, baseDir: process.cwd(), stages, limits, needs: { lines: flags.format !== "text" || flags.tables !== undefined }, worker: adopted, warn: say });
  worker.prestart();
  let configs: ComponentConfig[] | number;
  try {
    configs = await stageConfigs(flags);
  } catch (err) {
    worker.kill();
    throw err;
  }
  if (typeof configs === "number") {
    refused(new Error("options refused"));
    worker.kill();
    return configs;
  }
  checked(configs);
  return worker;
}

/** The run's limits from the flags; the file size limit by default is what the memory cap can hold. */
export function fileLimits(flags: ExtractFlags): FileLimits {
  return {
    timeout_seconds: flags.timeoutSeconds ?? DEFAULT_LIMITS.timeout_seconds,
    max_worker_memory_mb: flags.maxWorkerMemoryMb ?? DEFAULT_LIMITS.max_worker_memory_mb,
    max_pages: flags.maxPages ?? DEFAULT_LIMITS.max_pages,
    max_file_bytes: flags.maxFileBytes ?? Math.min(DEFAULT_LIMITS.max_file_bytes, Math.floor(((flags.maxWorkerMemoryMb ?? DEFAULT_LIMITS.max_worker_memory_mb) * 1048576) / WORKER_BYTES_PER_FILE_BYTE)),
  };
}

/** A text, Markdown or CSV output (the JSON one is laid out by the caller: indented for one file, a line per file in a batch). */
export function renderedOutput(result: Extract<DocumentResult, { status: "ok" }>, tables: readonly DocumentTable[], flags: ExtractFlags): string {
  return flags.format === "csv" ? tables.map((t) => tableCsv(t.rows)).join("\n") : textOutput(result.pages, flags.format === "markdown" ? "markdown" : "plain", flags.markers ?? false);
}

/**
 * The default pipeline's stages with the command's flags, validated and their needs from the
 * machine checked; an exit code (and said why) when a flag is refused or a need is missing.
 */
export async function stageConfigs(flags: ExtractFlags): Promise<ComponentConfig[] | number> {
  const { DEFAULT_STAGES, withOcr } = await import("../pipeline/default-pipeline.js");
  const skipped = new Set([...(flags.stripFurniture === false ? ["strip-furniture"] : []), ...(flags.dehyphenate === false ? ["dehyphenate"] : [])]);
  const chosen = (flags.ocr || flags.ocrLanguages !== undefined ? withOcr(DEFAULT_STAGES) : DEFAULT_STAGES).filter((s) => !skipped.has(s.type));
  // Nothing to check: the worker parses the options again, and fills in the defaults. Loading
  // the schemas (zod) and the stages here would only take CPU from the worker as it starts.
  if (onlyModeGiven(flags)) return chosen.map(({ type }) => ({ type, options: type === "extract" ? extractOverrides(flags) : {} }));
  // Loaded after the worker has started: the schemas and the registry are the command's own
  // start-up cost, paid while the worker boots and imports pdf.js on the other core.
  const [{ describeError }, { loadSpec }] = await Promise.all([import("../core/document-error.js"), import("../pipeline/registry.js")]);
  const configs: ComponentConfig[] = [];
  for (const { type } of chosen) {
    const spec = await loadSpec("stage", type, process.cwd());
    const overrides = type === "extract" ? extractOverrides(flags) : type === "ocr" ? ocrOverrides(flags) : {};
    const parsed = spec.options.safeParse(overrides);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) say(`--${type === "ocr" ? "ocr-" : ""}${String(issue.path[0] ?? type)}: ${issue.message}`);
      return EXIT.usage;
    }
    const options = parsed.data as Record<string, unknown>;
    try {
      // What a stage needs from the machine (Tesseract, a language pack), before the worker reads the file.
      await spec.check?.(options as never, { baseDir: process.cwd(), warn: say });
    } catch (err) {
      say(`${type}: ${describeError(err)}`);
      return EXIT.fatal;
    }
    configs.push({ type, options });
  }
  return configs;
}

/**
 * True when no flag sets a stage option but `--mode`, which commander has checked against its
 * choices: no option can be refused, and no stage has a need to check on the machine (only OCR's).
 */
function onlyModeGiven(flags: ExtractFlags): boolean {
  return flags.pages === undefined && flags.password === undefined && !flags.ocr && flags.ocrLanguages === undefined;
}

function extractOverrides(flags: ExtractFlags): Record<string, unknown> {
  return {
    mode: flags.mode,
    ...(flags.pages !== undefined ? { pages: flags.pages } : {}),
    ...(flags.password !== undefined ? { password: flags.password } : {}),
  };
}

function ocrOverrides(flags: ExtractFlags): Record<string, unknown> {
  return flags.ocrLanguages !== undefined ? { languages: flags.ocrLanguages.split(/[,+]/).map((l) => l.trim()).filter(Boolean) } : {};
}

/**
 * Body text in a view (plain or Markdown), paragraphs and pages separated by one blank line (a
 * paragraph running over a page break reads whole); with markers every page is labelled, empty
 * pages too: "--- Page 3 ---" in plain text, an HTML comment a Markdown renderer does not show
 * (`<!-- page 3 -->`) in Markdown.
 */
export function textOutput(pages: readonly PageRecord[], format: TextFormat, markers: boolean): string {
  if (markers && format === "markdown") return pages.map((p) => `<!-- page ${p.number} -->\n\n${p.text ? pageViewText(p, format) + "\n\n" : ""}`).join("");
  if (markers) return pages.map((p) => `--- Page ${p.number} ---\n${p.text ? p.text + "\n" : ""}`).join("");
  const { text } = documentViewText(pages, format);
  return text ? text + "\n" : "";
}

export function jsonOutput(result: Extract<DocumentResult, { status: "ok" }>, tables: readonly DocumentTable[]): object {
  // snake_case like every other surface that leaves the process (src/core/wire-keys.ts).
  return wireKeys({
    document: result.document,
    pages: result.pages.map(({ type: _type, documentId: _id, uri: _uri, number, text, ...fields }) => ({ number, text, ...fields, ...pageBoxes({ number, ...fields }) })),
    tables: tables.map((t) => ({ page: t.page, pages: t.pages, index: t.index, rows: t.rows.length, columns: t.rows[0]?.length ?? 0, cells: tableCells(t) })),
    warnings: result.warnings,
  }) as object;
}

/** A page's lines with their box, its paragraphs with theirs (one per column piece), on the page as displayed. */
function pageBoxes(page: Pick<PageRecord, "number" | "lines" | "paragraphs" | "toDisplay">): Pick<PageRecord, "lines" | "paragraphs"> {
  const toDisplay = page.toDisplay;
  if (!toDisplay) return { lines: page.lines, paragraphs: page.paragraphs };
  const boxes = page.lines.map((line) => lineBox(page.number, toDisplay, line));
  return {
    lines: page.lines.map((line, k) => ({ ...line, box: boxes[k]! })),
    paragraphs: page.paragraphs.map((p) => ({ ...p, boxes: mergeBoxes(boxes.slice(p.start, p.end)) })),
  };
}

/**
 * Each table as `<stem>-p<page>-t<index>.csv` in `folder` (made if missing); says how many on
 * stderr, naming the file as `shown`. A batch passes its output names' stems, subfolders
 * (`2024/q1`) and `-2` suffixes included, so two inputs' tables never overwrite each other.
 */
export async function writeTables(folder: string, stem: string, shown: string, tables: readonly DocumentTable[]): Promise<void> {
  await mkdir(join(folder, dirname(stem)), { recursive: true });
  for (const t of tables) await writeFile(join(folder, `${stem}-p${t.page}-t${t.index}.csv`), tableCsv(t.rows));
  say(`${shown}: ${tables.length} table${tables.length === 1 ? "" : "s"} written to ${folder}`);
}
