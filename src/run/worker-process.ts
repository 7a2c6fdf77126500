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
    execArgv: [`--max-old-space-size=${maxWorkerMemoryMb}`],
    // A worker compiles pdf.js again at every start; with the command's compile cache (Node 22+) it reads it compiled.
    env: withCompileCache(process.env),
  });
}

function withCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dir = compileCacheDir();
  return dir && env.NODE_DISABLE_COMPILE_CACHE === undefined ? { ...env, NODE_COMPILE_CACHE: dir } : env;
}

function workerEntry(): string {
  if (!existsSync(WORKER_ENTRY)) throw new Error(`the extraction worker ${WORKER_ENTRY} is missing: run \`npm run build\``);
  return WORKER_ENTRY;
}
