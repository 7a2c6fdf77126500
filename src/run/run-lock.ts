/**
 * One run per run folder. Two runs writing the same sinks and run state interleave JSONL bytes
 * and each truncate what the other wrote past its checkpoint, silently; so a run takes
 * `run.lock` in the run folder before anything is opened, and a second one stops with a
 * sentence naming the holder ("another run (pid 4242 on host, started …) holds out/").
 *
 * The lock file is created exclusively (O_EXCL) and holds who took it. A lock whose process is
 * gone — a run killed with SIGKILL, a machine that rebooted — is stale and taken over; on the
 * same host that is told by asking the kernel whether the pid lives (and is still the process
 * that took the lock, not a recycled pid), so nobody has to delete it by hand. A lock taken
 * on another host (a run folder on a network share) cannot be checked from here and is
 * respected; its message says how to remove it if that run is gone.
 */
import { readFileSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { RunRefused } from "./run-refused.js";

export const LOCK_FILE = "run.lock";

export interface LockInfo {
  pid: number;
  host: string;
  started_at: string;
  /** The holder's start time in the kernel's clock ticks since boot (Linux): tells a recycled pid from the holder. */
  process_start?: string;
}

/** The run folder is held by another run. */
export class RunFolderLocked extends RunRefused {
  constructor(
    readonly folder: string,
    readonly holder: LockInfo,
    sameHost: boolean,
  ) {
    super(
      `another run (pid ${holder.pid}${sameHost ? "" : ` on ${holder.host}`}, started ${holder.started_at}) holds ${folder}` +
        (sameHost ? "" : `: if that run is gone, delete ${join(folder, LOCK_FILE)}`),
    );
  }
}

export interface RunLock {
  /** Releases the lock (only if it is still ours). */
  release(): Promise<void>;
}

/** Takes the run folder's lock, taking over a stale one; throws RunFolderLocked when another run holds it. */
export async function lockRunFolder(folder: string, displayName = folder): Promise<RunLock> {
  const path = join(folder, LOCK_FILE);
  const start = processStart(process.pid);
  const mine: LockInfo = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), ...(start ? { process_start: start } : {}) };
  const text = JSON.stringify(mine) + "\n";
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(path, "wx");
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { release: () => releaseIfMine(path, mine) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = await readLock(path);
    if (holder && !holderGone(holder)) throw new RunFolderLocked(displayName, holder, holder.host === mine.host);
    // Stale (or unreadable: a lock file torn by a crash while it was written). Moved aside under
    // a name of our own first, so two runs taking over at once cannot both win: only one rename
    // of the same file succeeds, the other finds it gone and tries again from the start.
    const aside = `${path}.stale.${process.pid}`;
    await rename(path, aside).then(
      () => rm(aside, { force: true }),
      () => undefined,
    );
  }
  throw new Error(`could not take ${path}: it keeps changing (several runs starting at once?)`);
}

async function readLock(path: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse(await readFile(path, "utf8")) as Partial<LockInfo>;
    if (typeof info.pid === "number" && typeof info.host === "string" && typeof info.started_at === "string") return info as LockInfo;
  } catch {
    // gone, or torn: stale
  }
  return undefined;
}

/**
 * Whether the process that took a lock (this one, or a queue's coordinator claim) is gone: told
 * on this host only — by its pid, and its start time where a pid may have been recycled.
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

async function releaseIfMine(path: string, mine: LockInfo): Promise<void> {
  try {
    const now = JSON.parse(readFileSync(path, "utf8")) as LockInfo;
    if (now.pid !== mine.pid || now.started_at !== mine.started_at) return;
  } catch {
    return;
  }
  await rm(path, { force: true });
}
