/**
 * A worker process ends as soon as the process that started it is gone (SIGKILLed, crashed):
 * nothing would read its results, and nobody would stop it at `timeout_seconds` either.
 *
 * The IPC channel's 'disconnect' event says so only when the worker's event loop turns, and
 * extraction starves it: pdf.js parses a page through a long chain of promises, and some steps
 * (inflating a stream, a big xref) are synchronous, so an orphan went on for seconds to minutes
 * (up to 49 s measured, on a 3,000-page document). A worker thread has an event loop of its
 * own: it looks at the parent pid every POLL_MS and kills the process when it has changed (the
 * orphan was adopted by init or a subreaper). It costs about 10 MiB per worker.
 */
import { Worker } from "node:worker_threads";

/** How often the thread looks: a SIGKILLed run's workers are gone within about this long. */
const POLL_MS = 200;

/** Above 0 while the process finishes something it must not be killed in the middle of. */
const finishing = new Int32Array(new SharedArrayBuffer(4));

/** Starts the watching thread; it never keeps the process alive. */
export function exitWithParent(): void {
  const watcher = new Worker(
    `const { workerData: { parent, finishing } } = require("node:worker_threads");
     setInterval(() => { if (process.ppid !== parent && Atomics.load(finishing, 0) === 0) process.kill(process.pid, "SIGKILL"); }, ${POLL_MS});`,
    // The parent as this process knows it now, not when the thread has started (it may be gone by then).
    // A thread that only calls getppid: the smallest heap V8 takes.
    { eval: true, workerData: { parent: process.ppid, finishing }, resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 } },
  );
  watcher.unref();
}

/**
 * Runs `work`, a short synchronous step that is worth finishing even when the parent is gone
 * (writing pdf.js's code cache after the result went out, while the command that asked ends),
 * with the watch held off: the process then ends by its own 'disconnect'.
 */
export function finishEvenWithoutParent(work: () => void): void {
  Atomics.add(finishing, 0, 1);
  try {
    work();
  } finally {
    Atomics.sub(finishing, 0, 1);
  }
}
