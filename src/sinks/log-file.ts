/**
 * An append-only file that survives a kill at any moment: each checkpoint fsyncs it and
 * returns a token (its size and a hash of its last bytes) that the run state records. Opened
 * again with that token, the file is cut back to it, which drops anything written after the
 * checkpoint — a document the run state never acknowledged, or half a line torn by a kill.
 * A file that no longer matches its token (deleted, replaced, cut short) starts anew empty.
 */
import { createHash } from "node:crypto";
import { open, stat, type FileHandle } from "node:fs/promises";
import { outputError } from "../core/output-error.js";

export interface LogFileToken {
  size: number;
  /** sha256 of the (up to) 4 KiB before `size`: the file is the one the token was taken of. */
  tail_sha256: string;
}

const TAIL_BYTES = 4096;

export class LogFile {
  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private size: number,
    private committed: number,
    /** True when the file held what its token described and was kept. */
    readonly resumed: boolean,
  ) {}

  /** Opens `path` at its token, or empty (truncating it) when there is none or it does not match. */
  static async open(path: string, token: LogFileToken | undefined): Promise<LogFile> {
    try {
      if (token && (await matches(path, token))) {
        const handle = await open(path, "r+");
        await handle.truncate(token.size);
        return new LogFile(path, handle, token.size, token.size, true);
      }
      return new LogFile(path, await open(path, "w+"), 0, 0, false);
    } catch (err) {
      throw outputError(err, path, "open");
    }
  }

  /**
   * Appends whole lines. A write the file system cuts short (a full disk) is continued until
   * every byte is written, or, when it fails, cut back to where this append began: the file
   * never ends in half a record.
   */
  async append(records: readonly object[]): Promise<void> {
    if (records.length === 0) return;
    const bytes = Buffer.from(records.map((r) => JSON.stringify(r) + "\n").join(""));
    let written = 0;
    try {
      while (written < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written, this.size + written);
        if (bytesWritten === 0) throw Object.assign(new Error("the write made no progress"), { code: "EIO" });
        written += bytesWritten;
      }
    } catch (err) {
      await this.handle.truncate(this.size).catch(() => {});
      throw outputError(err, this.path);
    }
    this.size += bytes.length;
  }

  /** Makes everything appended durable and returns the token that describes the file now. */
  async checkpoint(): Promise<LogFileToken> {
    try {
      await this.handle.datasync();
    } catch (err) {
      throw outputError(err, this.path, "sync");
    }
    this.committed = this.size;
    return { size: this.size, tail_sha256: await tailHash(this.handle, this.size) };
  }

  /** Drops what was appended since the last checkpoint. */
  async rollback(): Promise<void> {
    await this.handle.truncate(this.committed);
    this.size = this.committed;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** True when the file at `path` still holds what `token` describes (it may have grown since). */
export async function matches(path: string, token: LogFileToken): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size < token.size) return false;
  const handle = await open(path, "r");
  try {
    return (await tailHash(handle, token.size)) === token.tail_sha256;
  } finally {
    await handle.close();
  }
}

async function tailHash(handle: FileHandle, size: number): Promise<string> {
  const length = Math.min(TAIL_BYTES, size);
  const buffer = Buffer.alloc(length);
  if (length > 0) await handle.read(buffer, 0, length, size - length);
  return createHash("sha256").update(buffer).digest("hex");
}

export function isLogFileToken(value: unknown): value is LogFileToken {
  const t = value as LogFileToken | undefined;
  return typeof t?.size === "number" && typeof t.tail_sha256 === "string";
}
