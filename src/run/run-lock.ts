/**
 * One run per run folder. Two runs writing the same sinks and run state interleave JSONL bytes
 * and each truncate what the other wrote past its checkpoint, silently; so a run locks
 * `run.lock` in the run folder before anything is opened, holds it for its whole life, and a
 * second one stops with a sentence naming the holder ("another run (pid 4242, started …) holds
 * out/").
 *
 * The lock is the kernel's, held by an open descriptor (file-lock.ts): a run killed with SIGKILL
 * loses it with its process, and the next run simply takes it. An earlier version judged a
 * lock file stale by its pid and moved "whatever was at run.lock" aside: eight runs starting
 * together over a dead run's lock moved each other's fresh locks aside and ran side by side.
 * The file's content only says who holds it.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { LOCK_FILE } from "../pipeline/run-folder-files.js";
import { isHeldElsewhere, lockFailure, tryLockFile } from "./file-lock.js";
import { RunRefused } from "./run-refused.js";

export interface LockInfo {
  pid: number;
  host: string;
  started_at: string;
  /** The holder's start time in the kernel's clock ticks since boot (Linux): tells a recycled pid from the holder. */
  process_start?: string;
}

/** The run folder is held by another run (`holder` unknown while that run is still writing who it is). */
export class RunFolderLocked extends RunRefused {
  constructor(
    readonly folder: string,
    readonly holder: LockInfo | undefined,
  ) {
    super(`another run${holder ? ` (${describeHolder(holder)})` : ""} holds ${folder}`);
  }
}

/** "pid 4242, started 2026-…" (with " on HOST" when it runs elsewhere: a run folder on a network share). */
export function describeHolder(holder: LockInfo): string {
  return `pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}, started ${holder.started_at}`;
}

export interface RunLock {
  /** Releases the lock. */
  release(): Promise<void>;
}

/** Who this process is, as a lock file records it. */
export function lockHolder(): LockInfo {
  const start = processStart(process.pid);
  return { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), ...(start ? { process_start: start } : {}) };
}

/**
 * Takes the run folder's lock for as long as the run lasts; throws RunFolderLocked when another
 * run holds it, and a RunRefused naming run.lock and the cause when it cannot be locked at all.
 */
export async function lockRunFolder(folder: string, displayName = folder): Promise<RunLock> {
  const path = join(folder, LOCK_FILE);
  let taken;
  try {
    taken = await tryLockFile(path, JSON.stringify(lockHolder()) + "\n");
  } catch (err) {
    throw lockFailure(err, path, join(displayName, LOCK_FILE));
  }
  if (isHeldElsewhere(taken)) throw new RunFolderLocked(displayName, parseHolder(taken.note));
  return { release: () => taken.release() };
}

/** The holder a lock file names, or undefined while it is being written. */
export function parseHolder(note: string): LockInfo | undefined {
  try {
    const info = JSON.parse(note) as Partial<LockInfo>;
    if (typeof info.pid === "number" && typeof info.host === "string" && typeof info.started_at === "string") return info as LockInfo;
  } catch {
    // empty, or half written
  }
  return undefined;
}

/**
 * Whether the process that made a claim (a queue coordinator's, in Redis, where no kernel lock
 * reaches) is gone: told on this host only — by its pid, and its start time where a pid may
 * have been recycled.
 */
export function holderGone(holder: LockInfo): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
  const start = processStart(holder.pid);
  return holder.process_start !== undefined && start !== undefined && start !== holder.process_start;
}

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot); undefined where there is no /proc. */
export function processStart(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
