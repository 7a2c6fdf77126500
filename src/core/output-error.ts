/**
 * A run's output could not be written: the disk is full, the folder is read-only, this user
 * may not write there. It names the file and the cause in words, with the system's code, so the
 * message says what to fix ("cannot write out/chunks.jsonl: no space left on the device
 * (ENOSPC)"). A run stops on it, cleanly: what was committed stays, nothing torn is left, and
 * the next run, once the cause is fixed, goes on from the last checkpoint.
 */
export class OutputError extends Error {
  override name = "OutputError";
  constructor(
    readonly path: string,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EIO: "an I/O error",
  EFBIG: "the file is larger than the file system allows",
  SQLITE_FULL: "no space left on the device",
  SQLITE_READONLY: "the database is read-only",
  SQLITE_IOERR: "an I/O error",
  SQLITE_CANTOPEN: "the database cannot be opened",
  SQLITE_PERM: "permission denied",
};

/** What went wrong writing `path` (shown as `shown`), as an OutputError; `doing` says what it was ("write", "create"). */
export function outputError(err: unknown, path: string, doing = "write", shown = path): OutputError {
  if (err instanceof OutputError) return err;
  const raw = (err as { code?: unknown })?.code;
  // better-sqlite3 gives SQLITE_IOERR_WRITE and the like: the family names the reason.
  const code = typeof raw === "string" ? raw : "UNKNOWN";
  const family = code.startsWith("SQLITE_") ? code.split("_").slice(0, 2).join("_") : code;
  const reason = REASONS[code] ?? REASONS[family] ?? (err instanceof Error ? err.message : String(err));
  return new OutputError(path, code, `cannot ${doing} ${shown}: ${reason} (${code})`, { cause: err });
}

/** An SQLite error that is about the disk or the file's permissions, not the database's content. */
export function isStorageError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|PERM)/.test(code);
}
