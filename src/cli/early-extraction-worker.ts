/**
 * `pagestream extract` forks its extraction worker before anything else of the command line is
 * loaded: the worker's own start (Node, then pdf.js and the stages) is most of the command's time
 * on a small file, and it runs on another core while this process parses its options and checks
 * the stages. Only the memory cap must be known to fork (it is the worker's V8 heap limit), so it
 * is read from the arguments here; `extractCommand` forks another worker if the parsed options
 * say otherwise, and a command line that does not parse ends this process, and with it the
 * worker (it exits when its parent disconnects).
 */
import type { ChildProcess } from "node:child_process";
import { DEFAULT_LIMITS } from "../pipeline/limits.js";
import { forkExtractionWorker } from "../run/worker-process.js";

export interface EarlyWorker {
  child: ChildProcess;
  maxWorkerMemoryMb: number;
}

const MEMORY_FLAG = "--max-worker-memory-mb";

/** A worker for `pagestream extract <args>`, or undefined when the command only prints its help. */
export function forkEarlyWorker(args: readonly string[]): EarlyWorker | undefined {
  if (args.includes("--help") || args.includes("-h")) return undefined;
  const maxWorkerMemoryMb = memoryCap(args) ?? DEFAULT_LIMITS.max_worker_memory_mb;
  return { child: forkExtractionWorker(maxWorkerMemoryMb), maxWorkerMemoryMb };
}

/** `--max-worker-memory-mb N` or `--max-worker-memory-mb=N`, when it is a positive integer. */
function memoryCap(args: readonly string[]): number | undefined {
  const at = args.findIndex((a) => a === MEMORY_FLAG || a.startsWith(`${MEMORY_FLAG}=`));
  if (at < 0) return undefined;
  const value = Number(args[at] === MEMORY_FLAG ? args[at + 1] : args[at]!.slice(MEMORY_FLAG.length + 1));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
