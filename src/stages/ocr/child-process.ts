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
  const wrapper = parentDeathWrapper();
  const [command, argv] = wrapper ? [wrapper, ["--pdeathsig", "KILL", "--", executable, ...args]] : [executable, [...args]];
  const program = executable.split("/").pop() ?? executable;
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...run.env } });
    const stdout: Buffer[] = [];
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, run.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-STDERR_TAIL)));
    // A child that fails before reading all its input closes the pipe: its exit says why.
    child.stdin.on("error", () => {});
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`${program} could not be started: ${err.message}`, { cause: err }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return reject(new ChildTimeoutError(program, run.timeoutMs / 1000));
      if (code === 0) return resolve({ stdout: Buffer.concat(stdout), stderr });
      const tail = stderr.trim().split("\n").slice(-3).join(" / ");
      reject(new Error(`${program} failed (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ""}`));
    });
    child.stdin.end(run.input ?? Buffer.alloc(0));
  });
}
