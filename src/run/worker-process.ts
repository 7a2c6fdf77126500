/**
 * Starting one extraction worker process: the one way a worker is forked, whether by the pool
 * for a run or by `pagestream extract` before it has parsed its command line (see
 * `src/cli/early-extraction-worker.ts`), so an early worker is the same as any other.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { compileCacheDir } from "../compile-cache.js";
import { WORKER_ENTRY } from "../package-files.js";

/** A worker process with V8's heap capped at `maxWorkerMemoryMb` (the pool caps its resident memory too). */
export function forkExtractionWorker(maxWorkerMemoryMb: number): ChildProcess {
  return fork(workerEntry(), [], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    execArgv: [`--max-old-space-size=${maxWorkerMemoryMb}`, ...profilerSwitches(process.execArgv)],
    // A worker compiles pdf.js again at every start; with the command's compile cache (Node 22+) it reads it compiled.
    env: withCompileCache(process.env),
  });
}

/**
 * Node's profiler switches the command was started with (`node --cpu-prof --cpu-prof-dir=prof
 * dist/cli.js run`): its workers, where the extraction is, are profiled too, each into a file
 * of its own (a fixed `--cpu-prof-name` is left to the command).
 */
export function profilerSwitches(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const match = /^--(?:cpu|heap)-prof(?:-(dir|interval|name))?(=.*)?$/u.exec(arg);
    if (!match) continue;
    const takesValue = match[1] !== undefined && match[2] === undefined;
    const value = takesValue ? execArgv[++i] : undefined;
    if (match[1] === "name") continue;
    out.push(value === undefined ? arg : `${arg}=${value}`);
  }
  return out;
}

function withCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dir = compileCacheDir();
  return dir && env.NODE_DISABLE_COMPILE_CACHE === undefined ? { ...env, NODE_COMPILE_CACHE: dir } : env;
}

function workerEntry(): string {
  if (!existsSync(WORKER_ENTRY)) throw new Error(`the extraction worker ${WORKER_ENTRY} is missing: run \`npm run build\``);
  return WORKER_ENTRY;
}
