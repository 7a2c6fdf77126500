/**
 * `pagestream export [pipeline.yaml]`: the live records of a jsonl sink — each document once, in
 * its last version, without the tombstones — as JSONL on stdout or in a file. What a consumer
 * loading an index in one go wants, without writing the compaction of the log themselves.
 * With `--db`, or for a pipeline without a jsonl sink, the same from the archive, chosen as
 * `serve` and `search` choose it (archive-choice.ts; the lines: archive-export.ts).
 *
 * It reads the sink's log up to the checkpoint the run state recorded (what the last run
 * committed; a run writing after it changes nothing here), so an export never holds half a
 * document or one the state does not know. `--shape` lays chunks out for a loader (flat,
 * langchain, langchain_python, llamaindex), whatever shape the sink writes; `--stable-keys` puts
 * every metadata key on every line, for a typed store.
 */
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { archiveLines } from "./archive-export.js";
import { openArchiveFor, unusableArchive } from "./archive-choice.js";
import { formatIssue, loadPipelineFile, type ComponentConfig } from "../pipeline/config.js";
import { recordedCheckpoint } from "../run/state-checkpoints.js";
import { STATE_FILE } from "../pipeline/run-folder-files.js";
import { sinkKeys } from "../run/sink-keys.js";
import { flatChunk, shapeChunk, type ChunkShape } from "../sinks/jsonl/chunk-shapes.js";
import { liveLines } from "../sinks/jsonl/live-lines.js";
import { batches, replaceFile } from "../sinks/jsonl/replace-file.js";
import { sinkFiles, type JsonlCheckpoint, type JsonlOptions } from "../sinks/jsonl.js";
import { isLogFileToken, matches } from "../sinks/log-file.js";
import { EXIT } from "../exit-codes.js";

export const EXPORT_RECORDS = ["chunks", "pages", "documents"] as const;
const DEFAULT_PIPELINE = "pipeline.yaml";

export interface ExportFlags {
  /** chunks, pages, or the document records of a chunk sink; default: what the first jsonl sink writes. */
  records?: (typeof EXPORT_RECORDS)[number];
  shape?: ChunkShape;
  /** Every metadata key on every chunk line (an empty one as "" or []), whatever the sink writes. */
  stableKeys?: boolean;
  /** A file to write (whole or not at all); stdout without it. */
  out?: string;
  /** Export from this archive rather than from a jsonl sink. */
  db?: string;
}

/** Why an export cannot be made: a sentence, exit 2. */
class ExportRefused extends Error {}

export async function exportCommand(pipelineArgument: string | undefined, flags: ExportFlags): Promise<number> {
  const pipelinePath = pipelineArgument ?? DEFAULT_PIPELINE;
  if (flags.db !== undefined || (pipelineArgument === undefined && !existsSync(pipelinePath))) return exportArchive(pipelineArgument, flags);
  const loaded = await loadPipelineFile(pipelinePath);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: pipelinePath }) + "\n");
    return EXIT.usage;
  }
  const { config } = loaded;
  // A pipeline that writes only an archive is exported from the archive.
  if (!config.sinks.some((s) => s.type === "jsonl") && config.sinks.some((s) => s.type === "sqlite")) return exportArchive(pipelinePath, flags);
  try {
    const { sink, key } = chooseSink(config.sinks, flags.records, pipelinePath);
    const options = sink.options as JsonlOptions;
    const records = flags.records ?? options.records ?? "pages";
    if (flags.stableKeys && records !== "chunks") throw new ExportRefused(stableKeysRefusal(records));
    const { logs } = sinkFiles(options, config.baseDir);
    const log = records === "documents" ? logs[1]! : logs[0]!;
    const shown = relative(process.cwd(), log) || log;
    const stateFile = join(resolve(config.baseDir, config.settings.run_folder), STATE_FILE);
    const checkpoint = (await recordedCheckpoint(stateFile, key)) as JsonlCheckpoint | undefined;
    const token = checkpoint?.files?.[basename(log)];
    if (!isLogFileToken(token)) throw new ExportRefused(`no run of ${pipelinePath} has committed ${shown} yet (${relative(process.cwd(), stateFile) || stateFile} has no checkpoint for it): run the pipeline first`);
    const stale = `${shown} no longer holds what the run state recorded (it was replaced, cut or deleted since the last run): run the pipeline again, which writes it anew`;
    if (!(await matches(log, token))) throw new ExportRefused(stale);

    const shape = flags.shape ?? options.shape;
    // llamaindex lines are always made anew: one written before they named the keys LlamaIndex must not embed gets them.
    const reshape = records === "chunks" && (shape !== options.shape || shape === "llamaindex" || (flags.stableKeys === true && !options.stable_keys));
    let count = 0;
    const lines = (async function* () {
      for await (const line of liveLines(log, token.size)) {
        count++;
        yield reshape ? JSON.stringify(shapeChunk(flatChunk(JSON.parse(line.toString("utf8")) as Record<string, unknown>)!, shape, { stableKeys: flags.stableKeys })) : line;
      }
    })();
    if (flags.out !== undefined) await replaceFile(resolve(flags.out), lines);
    else await writeLines(lines);
    // A run that started the file anew while it was read: what was read is not what the state says.
    if (!(await matches(log, token))) throw new ExportRefused(stale);
    if (flags.out !== undefined) process.stderr.write(`pagestream: exported ${count} ${records === "documents" ? "document record" : records === "chunks" ? "chunk" : "record"}(s) from ${shown} to ${flags.out}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof ExportRefused) {
      process.stderr.write(`pagestream: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

/** The records of the archive `chooseArchive` finds, as JSONL lines (see archive-export.ts). */
async function exportArchive(pipeline: string | undefined, flags: ExportFlags): Promise<number> {
  if (flags.stableKeys && (flags.records ?? "chunks") !== "chunks") {
    process.stderr.write(`pagestream: ${stableKeysRefusal(flags.records!)}\n`);
    return EXIT.usage;
  }
  const opened = await openArchiveFor({ ...(flags.db !== undefined ? { db: flags.db } : {}), ...(pipeline !== undefined ? { pipeline } : {}) });
  if (!opened.ok) {
    process.stderr.write(opened.text);
    return EXIT.usage;
  }
  const { db } = opened;
  const { shown } = opened.choice;
  try {
    const records = flags.records ?? "chunks";
    let count = 0;
    const lines = (async function* () {
      for (const line of archiveLines(db, records, flags.shape ?? "flat", { stableKeys: flags.stableKeys })) {
        count++;
        yield line;
      }
    })();
    if (flags.out !== undefined) await replaceFile(resolve(flags.out), lines);
    else await writeLines(lines);
    if (flags.out !== undefined) process.stderr.write(`pagestream: exported ${count} ${records === "documents" ? "document record" : records === "chunks" ? "chunk" : "page record"}(s) from ${shown} to ${flags.out}\n`);
    return EXIT.ok;
  } catch (err) {
    const unusable = unusableArchive(err);
    if (unusable !== undefined) {
      process.stderr.write(`pagestream: ${shown}: ${unusable}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    db.close();
  }
}

function stableKeysRefusal(records: string): string {
  return `--stable-keys is about chunk metadata, and these are ${records === "pages" ? "page" : "document"} records: export chunks (--records chunks), or leave it out`;
}

/** The jsonl sink that writes what is asked for, and the key the run state knows it by. */
function chooseSink(sinks: readonly ComponentConfig<"sink">[], records: ExportFlags["records"], pipelinePath: string): { sink: ComponentConfig<"sink">; key: string } {
  const keys = sinkKeys(sinks);
  const writes = (s: ComponentConfig<"sink">) => (s.options as JsonlOptions).records ?? "pages";
  const index = sinks.findIndex((s) => s.type === "jsonl" && (records === undefined || writes(s) === (records === "documents" ? "chunks" : records)));
  if (index < 0) {
    const what = records === undefined ? "records" : records === "documents" ? "chunk records (whose document records are exported)" : `${records === "chunks" ? "chunk" : "page"} records`;
    throw new ExportRefused(`${pipelinePath} has no jsonl sink that writes ${what}: add one (\`- type: jsonl\`; \`mode: snapshot\` keeps the live file for you), or read the archive with SQL`);
  }
  return { sink: sinks[index]!, key: keys[index]! };
}

/** Lines to stdout, waiting for it to drain; a reader that goes away (`| head`) ends the export quietly. */
async function writeLines(lines: AsyncIterable<Buffer | string>): Promise<void> {
  const out = process.stdout;
  let closed = false;
  out.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") closed = true;
    else throw err;
  });
  for await (const { bytes } of batches(lines)) {
    if (closed) break;
    if (!out.write(bytes)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off("drain", done);
          out.off("close", done);
          resolve();
        };
        out.on("drain", done);
        out.on("close", done);
      });
    }
  }
}
