/**
 * The programs OCR runs (tesseract, pdftoppm), as child processes of the extraction worker that
 * never outlive it and never touch the disk: the input goes in on stdin, the output comes back
 * on stdout.
 *
 * The run kills a worker with SIGKILL when a document runs over its time or memory, and a
 * killed process cannot clean up after itself: its children would run on, orphaned, until
 * their page is done. So on Linux each program is started through util-linux's `setpriv
 * --pdeathsig KILL`, which asks the kernel to kill it the moment its parent dies, however the
 * parent died. Where setpriv is missing the program is started directly (and a killed worker's
 * last page may finish on its own).
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export interface ChildRun {
  /** Written to the child's stdin, which is then closed. */
  input?: Uint8Array;
  /** The child is killed (SIGKILL) past this many milliseconds. */
  timeoutMs: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

export interface ChildOutput {
  stdout: Buffer;
  stderr: string;
}

/** The child ran longer than its time budget and was killed. */
export class ChildTimeoutError extends Error {
  constructor(
    readonly program: string,
    readonly seconds: number,
  ) {
    super(`${program} took longer than ${seconds} s and was stopped`);
    this.name = "ChildTimeoutError";
  }
}

/** Bytes of a child's stderr kept to explain a failure. */
const STDERR_TAIL = 2048;

/** The absolute path of `program` on PATH, or undefined when it is not there (or not executable). */
export function findExecutable(program: string, path = process.env.PATH ?? ""): string | undefined {
  const candidates = isAbsolute(program) ? [program] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let setpriv: string | null | undefined;

/** setpriv, when this system has one that can set a parent-death signal (Linux util-linux). */
function parentDeathWrapper(): string | undefined {
  if (setpriv === undefined) setpriv = process.platform === "linux" ? (findExecutable("setpriv", "/usr/bin:/bin:/usr/sbin:/sbin") ?? null) : null;
  return setpriv ?? undefined;
}

/**
 * Runs `executable` (an absolute path, see findExecutable) with `args`. Resolves with its output
 * when it exits with 0; rejects with a ChildTimeoutError past the time budget, or an Error
 * carrying the end of its stderr when it fails.
 */
export function runChild(executable: string, args: readonly string[], run: ChildRun): Promise<ChildOutput> {
  return startChild(executable, args, { env: run.env }).run(run.input ?? Buffer.alloc(0), run.timeoutMs);
}

/** A child started before its input is ready: it loads (Tesseract its language models) while the input is prepared. */
export interface StartedChild {
  /** Writes `input` to the child's stdin, closes it, and waits for the child as runChild does; the time budget starts now. Call once. */
  run(input: Uint8Array, timeoutMs: number): Promise<ChildOutput>;
  /** Kills a child that will not be given its input. */
  cancel(): void;
}

type Exit = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

/** Starts `executable` now; it waits on its stdin until `run` gives it its input. */
export function startChild(executable: string, args: readonly string[], options: { env?: Record<string, string> } = {}): StartedChild {
  const wrapper = parentDeathWrapper();
  const [command, argv] = wrapper ? [wrapper, ["--pdeathsig", "KILL", "--", executable, ...args]] : [executable, [...args]];
  const program = executable.split("/").pop() ?? executable;
  const child = spawn(command, argv, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...options.env } });
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-STDERR_TAIL)));
  // A child that fails before reading all its input closes the pipe: its exit says why.
  child.stdin.on("error", () => {});
  // Listened to from the start, so that a child that dies while it waits is neither lost nor an unhandled error.
  const exited = new Promise<Exit>((resolve) => {
    child.on("error", (error) => resolve({ error }));
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
  return {
    async run(input, timeoutMs) {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, timeoutMs);
      child.stdin.end(input);
      const exit = await exited.finally(() => clearTimeout(timer));
      if ("error" in exit) throw new Error(`${program} could not be started: ${exit.error.message}`, { cause: exit.error });
      if (timedOut) throw new ChildTimeoutError(program, timeoutMs / 1000);
      if (exit.code === 0) return { stdout: Buffer.concat(stdout), stderr };
      const tail = stderr.trim().split("\n").slice(-3).join(" / ");
      throw new Error(`${program} failed (${exit.signal ?? `exit ${exit.code}`})${tail ? `: ${tail}` : ""}`);
    },
    cancel() {
      child.kill("SIGKILL");
    },
  };
}
