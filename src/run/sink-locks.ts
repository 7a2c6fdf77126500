/**
 * One writer per sink file, across pipelines. The run folder's lock keeps two runs of one
 * pipeline apart, but two pipelines with run folders of their own may name one JSONL file or
 * archive — or one file through a symlinked folder: both ran, interleaving and truncating each
 * other's records, and both exited 0. So a run also locks `<file>.lock` beside every file its
 * sinks write, found by the file's real path (every pipeline agrees on it whatever path it
 * names the file by), and holds those locks for its whole life, as it holds the run folder's.
 */
import { dirname, relative } from "node:path";
import { ensureFolder } from "../core/output-folder.js";
import { outputError } from "../core/output-error.js";
import type { PipelineConfig } from "../pipeline/config.js";
import { realPathOf } from "../pipeline/output-collisions.js";
import { isHeldElsewhere, lockFailure, tryLockFile, type HeldFileLock } from "./file-lock.js";
import { describeHolder, lockHolder, parseHolder, type LockInfo } from "./run-lock.js";
import { RunRefused } from "./run-refused.js";

/** What a sink file's lock records of its holder, for the message another run gets. */
interface SinkLockInfo extends LockInfo {
  /** The holder's pipeline file. */
  pipeline?: string;
}

/** A sink file is written by another run. */
export class SinkFileLocked extends RunRefused {
  constructor(
    readonly file: string,
    readonly holder: SinkLockInfo | undefined,
  ) {
    const who = holder ? ` (${describeHolder(holder)}${holder.pipeline ? `, pipeline ${holder.pipeline}` : ""})` : "";
    super(`another run${who} writes ${file}: a file takes one writer; give this pipeline's sink a path of its own`);
  }
}

export interface SinkLocks {
  release(): Promise<void>;
}

/** Locks every file the pipeline's sinks write; throws SinkFileLocked when another run writes one of them. */
export async function lockSinkFiles(config: PipelineConfig, pipelineFile: string): Promise<SinkLocks> {
  const files = new Map<string, string>(); // real path → as the pipeline names it
  for (const sink of config.sinks) {
    for (const { path } of sink.spec.writesFiles?.(sink.options, config.baseDir) ?? []) {
      const shown = relative(config.baseDir, path) || path;
      files.set(await realOutputPath(path, shown), shown);
    }
  }
  const note = JSON.stringify({ ...lockHolder(), pipeline: pipelineFile } satisfies SinkLockInfo) + "\n";
  const held: HeldFileLock[] = [];
  const release = async () => {
    await Promise.allSettled(held.map((lock) => lock.release()));
  };
  try {
    // In one order for every run, so that two runs never each hold what the other needs next.
    for (const [real, shown] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const lockPath = `${real}.lock`;
      let taken;
      try {
        taken = await tryLockFile(lockPath, note);
      } catch (err) {
        throw lockFailure(err, lockPath, `${shown}.lock`);
      }
      if (isHeldElsewhere(taken)) throw new SinkFileLocked(shown, parseHolder(taken.note) as SinkLockInfo | undefined);
      held.push(taken);
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { release };
}

/**
 * The file's real path (a link to a file is the file it names), its folder made if missing:
 * the sink would make it, and the lock file goes beside it.
 */
async function realOutputPath(path: string, shown: string): Promise<string> {
  const folder = dirname(path);
  try {
    await ensureFolder(folder, dirname(shown));
  } catch (err) {
    throw new RunRefused(outputError(err, folder, "create the folder", dirname(shown)).message, { cause: err });
  }
  return realPathOf(path);
}
