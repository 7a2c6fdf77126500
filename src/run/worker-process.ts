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
    execArgv: [...workerSwitches(maxWorkerMemoryMb), ...profilerSwitches(process.execArgv)],
    // A worker compiles pdf.js again at every start; with the command's compile cache (Node 22+) it reads it compiled.
    env: withCompileCache(process.env),
  });
}

/**
 * A worker's V8 switches for a heap capped at `maxWorkerMemoryMb`: the cap, how its two
 * generations start, and how much its optimising compiler inlines (also what
 * bench/per-document.mjs runs the extract stage with).
 */
export function workerSwitches(maxWorkerMemoryMb: number, v8Version = process.versions.v8): string[] {
  return [`--max-old-space-size=${maxWorkerMemoryMb}`, ...youngGeneration(maxWorkerMemoryMb, v8Version), ...oldGenerationStart(maxWorkerMemoryMb), ...inliningBudget(v8Version)];
}

/**
 * The V8 of Node 20 gives a heap a young generation of semi-spaces of 16 MiB at most.
 * Extraction makes short-lived objects by the million (text items, runs, lines, their arrays),
 * and in 16 MiB more of them live through a collection and are copied: twice that took garbage
 * collection from 12.7–14.6 % of a CPU profile over the 86 real + business PDFs to 9.2–10.9 %,
 * for 0–50 MiB more resident memory (64 MiB gained nothing more). The young generation is 3
 * semi-spaces, so a worker allowed a small heap keeps V8's own size. Later V8s size the young
 * generation from the heap (Node 24: 64 MiB semi-spaces for a 1 GiB heap), and keep their own.
 */
export function youngGeneration(maxWorkerMemoryMb: number, v8Version = process.versions.v8): string[] {
  if (v8Major(v8Version) > LAST_V8_OF_SMALL_SEMI_SPACES) return [];
  const semiSpaceMb = Math.min(MAX_SEMI_SPACE_MB, Math.floor(maxWorkerMemoryMb / 32));
  return semiSpaceMb > V8_SEMI_SPACE_MB ? [`--max-semi-space-size=${semiSpaceMb}`] : [];
}

/**
 * V8 sizes the first limit of a heap's old generation from the heap's cap: under a 1 GiB cap it
 * starts so small that the worker ran 13 full collections over the 86 real + business PDFs (5
 * with Node's own cap), marking concurrently through much of the run, on the core the worker's
 * other threads share. Started at 128 MiB it runs 3 (Node 24: 14 → 6), and the files are read
 * in 0.92× the time (5.76 → 5.33 s, medians of 4 alternating), for 30–45 MiB more resident
 * memory at peak. A worker allowed less starts at an eighth of its cap, which leaves the memory
 * it is allowed to the documents (V8 collects before the cap however it started).
 */
export function oldGenerationStart(maxWorkerMemoryMb: number): string[] {
  const startMb = Math.min(MAX_OLD_GENERATION_START_MB, Math.floor(maxWorkerMemoryMb / 8));
  return startMb > 0 ? [`--initial-old-space-size=${startMb}`] : [];
}

const MAX_OLD_GENERATION_START_MB = 128;

/**
 * Node 20's optimising compiler (TurboFan, V8 11) inlines up to 920 bytes of bytecode into each
 * function it optimises. Layout's functions call many small helpers over objects of many shapes
 * (runs with and without their optional fields, lines, fragments, strips), so a function
 * optimised with its helpers inlined soon meets a shape it was not compiled for, and is thrown
 * away and compiled again whole, on the worker's background threads: `whiteColumns` seven times
 * at ~50 ms in six reads of the perf documents, `tablesOf` five times. Over the four perf
 * documents read in one process, those threads spent 1.16–1.41 s of CPU beside the main thread's
 * 1.70–1.76 s; with half the budget, 0.85–0.96 s beside 1.60–1.69 s, and the documents were
 * read in 0.9× the time (three alternating rounds; docs/performance.md). That is CPU a second
 * worker needs on a machine of two cores. A quarter of the budget slowed the main thread; Node
 * 24's V8, which has a faster tier under TurboFan (Maglev), gained nothing from half (its main
 * thread 3–6 % slower), and keeps its own.
 */
export function inliningBudget(v8Version = process.versions.v8): string[] {
  return v8Major(v8Version) > LAST_V8_WITHOUT_MAGLEV ? [] : [`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_BUDGET}`];
}

/** Node 20's V8 (11.3), the last without Maglev on, and half its cumulative inlining budget of 920 bytes of bytecode. */
const LAST_V8_WITHOUT_MAGLEV = 11;
const INLINED_BYTECODE_BUDGET = 460;

/** The major version of a V8 version string ("11.3.244.8-node.33" → 11). */
function v8Major(v8Version: string): number {
  return Number(v8Version.split(".")[0]);
}

/** Node 20's V8 (11.3) and its semi-space cap. */
const LAST_V8_OF_SMALL_SEMI_SPACES = 11;
const V8_SEMI_SPACE_MB = 16;
const MAX_SEMI_SPACE_MB = 32;

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
