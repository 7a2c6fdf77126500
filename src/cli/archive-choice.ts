/**
 * Which archive `serve`, `search`, `export` and `mcp` open, and where its originals are: one
 * rule for all of them.
 *
 * The archive: `--db`; else the sqlite sink of `--pipeline`, or of ./pipeline.yaml when there
 * is one with such a sink; else ./out/archive.sqlite.
 *
 * Its pipeline — whose stages a dropped PDF goes through and whose source folder "Add to the
 * archive" saves into — is `--pipeline`, or the one the archive recorded (archive-origin.ts)
 * while that file still writes this archive. A pipeline.yaml that merely lies in the current
 * folder is never taken for another archive's pipeline.
 *
 * Its originals are read through that pipeline's source, else through the source the archive
 * recorded; an archive written before sources were recorded shows its text without originals.
 */
import Database from "better-sqlite3";
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { SourceOrigin } from "../core/plugin.js";
import { formatIssue, loadPipelineFile, type PipelineConfig } from "../pipeline/config.js";
import { loadSpec } from "../pipeline/registry.js";
import { describeSource, readOrigin, type RecordedOrigin } from "../sinks/sqlite/archive-origin.js";
import { ArchiveRefused, checkFullTextTables, hardenConnection } from "../sinks/sqlite/fts-tables-check.js";
import type { SourceRef } from "../serve/originals.js";

export interface ArchiveFlags {
  db?: string;
  pipeline?: string;
}

export interface ArchiveChoice {
  /** The archive file, absolute. */
  file: string;
  /** The archive as messages name it: as --db gave it, else relative to the current folder when inside it. */
  shown: string;
  /** The archive's own pipeline, when it is known and still writes this archive. */
  pipeline?: { file: string; config: PipelineConfig };
  /** Where originals are read from, when the archive's pipeline or record says. */
  source?: SourceRef;
  /** Sentences for the start: which archive, which pipeline, which source, and why not. */
  says: string[];
}

/** A refusal's `text` is what stderr shows, whole lines: a sentence, or a pipeline file's issues at their lines. */
export type ArchiveChoiceResult = { ok: true; choice: ArchiveChoice } | { ok: false; text: string };

const refused = (message: string): ArchiveChoiceResult => ({ ok: false, text: `pagestream: ${message}\n` });

const DEFAULT_ARCHIVE = "out/archive.sqlite";
const DEFAULT_PIPELINE = "pipeline.yaml";

export async function chooseArchive(flags: ArchiveFlags): Promise<ArchiveChoiceResult> {
  let named: { file: string; config: PipelineConfig } | undefined;
  let file: string | undefined = flags.db !== undefined ? resolve(flags.db) : undefined;
  if (flags.pipeline !== undefined || (file === undefined && existsSync(DEFAULT_PIPELINE))) {
    const path = flags.pipeline ?? DEFAULT_PIPELINE;
    if (!existsSync(path)) return refused(`${path}: the file does not exist`);
    const loaded = await loadPipelineFile(path);
    if (!loaded.ok) return { ok: false, text: loaded.issues.map((issue) => formatIssue({ ...issue, file: path }) + "\n").join("") };
    const sink = sqliteSinkFile(loaded.config);
    if (flags.pipeline !== undefined) {
      if (!sink) return refused(`${path} has no sqlite sink, so it writes no archive: give the archive with --db, without --pipeline`);
      if (file !== undefined && !sameFile(file, sink)) return refused(`${path} writes the archive ${shownPath(sink)}, not ${flags.db}: give one of --db and --pipeline`);
    }
    // A pipeline.yaml here without an sqlite sink is not the archive's: the default archive is.
    if (sink) {
      file ??= sink;
      named = { file: resolve(path), config: loaded.config };
    }
  }
  file ??= resolve(DEFAULT_ARCHIVE);
  // Named as the user wrote it, else as short as the current folder allows.
  const shown = flags.db ?? shownPath(file);
  if (!existsSync(file)) return refused(`no archive at ${shown} (run a pipeline with a sqlite sink first, or give --db)`);

  const recorded = recordedOrigin(file);
  const says: string[] = [];
  const pipeline = named ?? (await recordedPipeline(file, recorded, says));
  let source: SourceRef | undefined;
  if (pipeline) {
    const { type, spec, options } = pipeline.config.source;
    source = { type, spec, options, baseDir: pipeline.config.baseDir };
  } else if (recorded.source) {
    source = await recordedSource(recorded.source, says);
  }
  const sourceSaid = source ? sourceWords(source) : undefined;
  says.unshift(
    `archive ${shown}` +
      (pipeline ? `, written by ${shownPath(pipeline.file)}` : "") +
      (sourceSaid ? `; originals from ${sourceSaid}` : "; no originals (the archive does not say where they are: it was written before pagestream recorded its source — run its pipeline once more)"),
  );
  return { ok: true, choice: { file, shown, ...(pipeline ? { pipeline } : {}), ...(source ? { source } : {}), says } };
}

/**
 * The archive a reading command (search, export) works on: chosen, named to a person at a
 * terminal (on stderr, never mixed with what the command prints), and opened; or the whole text
 * that says why it cannot be.
 */
export async function openArchiveFor(flags: ArchiveFlags): Promise<{ ok: true; choice: ArchiveChoice; db: Database.Database } | { ok: false; text: string }> {
  const chosen = await chooseArchive(flags);
  if (!chosen.ok) return chosen;
  if (process.stderr.isTTY) process.stderr.write(`pagestream: ${chosen.choice.says[0]}\n`);
  const opened = openChosenArchive(chosen.choice);
  return opened.ok ? { ok: true, choice: chosen.choice, db: opened.db } : { ok: false, text: `pagestream: ${opened.message}\n` };
}

/**
 * The chosen archive opened read-only and defensively: it may come from elsewhere, so its
 * full-text tables are checked before FTS5 reads them. A file that cannot be used is a sentence.
 */
function openChosenArchive(choice: ArchiveChoice): { ok: true; db: Database.Database } | { ok: false; message: string } {
  let db: Database.Database | undefined;
  try {
    db = new Database(choice.file, { readonly: true, fileMustExist: true });
    hardenConnection(db);
    checkFullTextTables(db);
    return { ok: true, db };
  } catch (err) {
    db?.close();
    return { ok: false, message: `${choice.shown}: ${unusableArchive(err) ?? (err as Error).message}` };
  }
}

/** What makes an error a sentence about the archive file (refused, not SQLite, damaged); undefined for any other error. */
export function unusableArchive(err: unknown): string | undefined {
  if (err instanceof ArchiveRefused) return err.message;
  // Not an SQLite file, or a damaged one: SQLite says so at the first read.
  if (/^SQLITE_(NOTADB|CORRUPT)/.test((err as { code?: string }).code ?? "")) return (err as Error).message;
  return undefined;
}

/** The absolute path of a pipeline's sqlite sink, if it has one. */
function sqliteSinkFile(config: PipelineConfig): string | undefined {
  const sink = config.sinks.find((s) => s.type === "sqlite");
  return sink ? resolve(config.baseDir, sink.options.path as string) : undefined;
}

/** What the archive recorded of its origin; nothing when it cannot be read (opening it says why later). */
function recordedOrigin(file: string): RecordedOrigin {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return readOrigin(db);
  } catch {
    return {};
  } finally {
    db?.close();
  }
}

/** The pipeline the archive recorded, when it is still there, loads, and writes this archive. */
async function recordedPipeline(file: string, recorded: RecordedOrigin, says: string[]): Promise<{ file: string; config: PipelineConfig } | undefined> {
  if (!recorded.pipeline) return undefined;
  const shown = shownPath(recorded.pipeline);
  if (!existsSync(recorded.pipeline)) {
    says.push(`the pipeline that wrote it, ${shown}, is gone: a dropped PDF cannot be added to this archive`);
    return undefined;
  }
  const loaded = await loadPipelineFile(recorded.pipeline);
  const sink = loaded.ok ? sqliteSinkFile(loaded.config) : undefined;
  if (!loaded.ok || !sink || !sameFile(sink, file)) {
    const why = loaded.ok ? "now writes another archive" : `does not load here (${formatIssue({ ...loaded.issues[0]!, file: shown })})`;
    says.push(`the pipeline that wrote it, ${shown}, ${why}: a dropped PDF cannot be added to this archive`);
    return undefined;
  }
  return { file: recorded.pipeline, config: loaded.config };
}

/** The recorded source, made readable again by its declaration; undefined (and a sentence) when it cannot be. */
async function recordedSource(origin: SourceOrigin, says: string[]): Promise<SourceRef | undefined> {
  try {
    const spec = await loadSpec("source", origin.type, process.cwd());
    const parsed = spec.options.safeParse(origin.options);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
    return { type: origin.type, spec, options: parsed.data as Record<string, unknown>, baseDir: process.cwd() };
  } catch (err) {
    says.push(`its recorded source (${describeSource(origin)}) cannot be read here: ${(err as Error).message}`);
    return undefined;
  }
}

/** True when two paths name one file (through symlinks); paths that do not exist compare as written. */
function sameFile(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return real(a) === real(b);
}

function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** A source in a few words, as its declaration locates it. */
function sourceWords(source: SourceRef): string {
  const options = source.spec.origin?.(source.options as never, source.baseDir);
  return options ? describeSource({ type: source.type, options }) : `the ${source.type} source`;
}
