/**
 * A lock on a file, held by an open descriptor for as long as it stays open: an
 * open-file-description lock (fcntl F_OFD_SETLK) on Linux, flock on macOS, LockFileEx on
 * Windows, through fs-native-extensions (Holepunch's; prebuilt for each platform inside the
 * package, no install script). Node has no flock of its own.
 *
 * The kernel drops the lock when its holder's process ends, however it ends (SIGKILL, a crash,
 * a reboot), so there is no stale lock to judge and no takeover to race: a file left by a killed
 * run is simply locked again. Two descriptors conflict even in one process.
 *
 * The file holds a note about its holder for the message a refused taker gets. It is removed on
 * release, while still locked; a taker that opened it just before, and so locked a file no longer
 * at that path, sees that and opens the path again.
 */
import { constants } from "node:fs";
import { open, rm, stat, type FileHandle } from "node:fs/promises";
import { outputError } from "../core/output-error.js";
import { RunRefused } from "./run-refused.js";

export interface HeldFileLock {
  readonly path: string;
  /** Removes the lock file and closes its descriptor, which releases the lock. Idempotent. */
  release(): Promise<void>;
}

/** Another descriptor holds the lock; `note` is what its holder wrote (empty while it is writing it). */
export interface LockHeldElsewhere {
  readonly note: string;
}

type Locking = { tryLock(fd: number): boolean };
let locking: Promise<Locking> | undefined;

/** Loaded on first use: `--help` and the commands that lock nothing never load the native addon. */
function lockingAddon(): Promise<Locking> {
  locking ??= import("fs-native-extensions").catch((err: unknown) => {
    // Its own code: the sentence is this message, not a file system's lack of locks.
    throw Object.assign(new Error(`file locks are not available on ${process.platform}-${process.arch} (fs-native-extensions: ${(err as Error).message})`), { code: "ERR_NO_LOCK_ADDON" });
  });
  return locking;
}

/**
 * Locks `path` (created if missing) without waiting and writes `note` in it; or says who holds
 * it. Throws the system's error when the file cannot be opened or locked (EROFS, EACCES, ENOLCK).
 */
export async function tryLockFile(path: string, note: string): Promise<HeldFileLock | LockHeldElsewhere> {
  const { tryLock } = await lockingAddon();
  // A few rounds at most: each retry means a holder released between our open and our lock.
  for (let attempt = 0; ; attempt++) {
    // Read and write, not append: the note is written at the start. An exclusive lock needs a writable descriptor.
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    try {
      if (!tryLock(handle.fd)) {
        const note = await readNote(handle);
        await handle.close();
        return { note };
      }
      const [ours, atPath] = await Promise.all([handle.stat(), stat(path).catch(() => undefined)]);
      if (!atPath || atPath.ino !== ours.ino || atPath.dev !== ours.dev) {
        await handle.close();
        if (attempt < 20) continue;
        throw Object.assign(new Error(`${path} keeps being replaced while it is locked`), { code: "EAGAIN" });
      }
      await handle.truncate(0);
      await handle.write(note, 0);
      return heldLock(path, handle, ours.ino, ours.dev);
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
  }
}

export function isHeldElsewhere(result: HeldFileLock | LockHeldElsewhere): result is LockHeldElsewhere {
  return "note" in result;
}

function heldLock(path: string, handle: FileHandle, ino: number, dev: number): HeldFileLock {
  let released: Promise<void> | undefined;
  return {
    path,
    release: () =>
      (released ??= (async () => {
        try {
          // Only our own file: one put there by hand after ours was deleted belongs to someone else.
          const atPath = await stat(path).catch(() => undefined);
          if (atPath && atPath.ino === ino && atPath.dev === dev) await rm(path, { force: true });
        } catch {
          // A lock file that cannot be removed (the folder became read-only) is harmless: it is not locked once closed.
        } finally {
          await handle.close();
        }
      })()),
  };
}

async function readNote(handle: FileHandle): Promise<string> {
  const buffer = Buffer.alloc(4096);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead).toString("utf8");
}

/** Lock-specific causes; the rest (read-only, permission, no space) are an output's. */
const LOCK_REASONS: Record<string, string> = {
  ENOLCK: "the file system does not support file locks (a network share without a lock service?)",
  EOPNOTSUPP: "the file system does not support file locks",
  ENOTSUP: "the file system does not support file locks",
  EISDIR: "it is a folder, not a file",
};

/** A lock file that could not be opened or locked, as a sentence naming it and the cause: nothing was written. */
export function lockFailure(err: unknown, path: string, shown = path): RunRefused {
  const code = (err as { code?: unknown })?.code;
  const reason = typeof code === "string" ? LOCK_REASONS[code] : undefined;
  const message = reason ? `cannot lock ${shown}: ${reason} (${String(code)})` : outputError(err, path, "lock", shown).message;
  return new RunRefused(message, { cause: err });
}
