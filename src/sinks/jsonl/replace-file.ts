/**
 * Writes a file whole or not at all: the lines go to a temporary file beside it, which is made
 * durable and then renamed over the target (and the folder made durable, so the rename survives
 * a power cut). A reader — or a kill at any moment — sees the old file or the new one, never
 * half of one.
 */
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { outputError } from "../../core/output-error.js";

/** Lines are gathered into writes of about this many bytes. */
const WRITE_BYTES = 1 << 20;
const NEWLINE = Buffer.from("\n");

/** Writes `lines` (each without its newline) as the file at `path`; returns how many were written. */
export async function replaceFile(path: string, lines: AsyncIterable<Buffer | string>): Promise<number> {
  const temp = `${path}.${process.pid}.tmp`;
  let count = 0;
  try {
    const handle = await open(temp, "w");
    try {
      for await (const batch of batches(lines)) {
        count += batch.lines;
        await handle.write(batch.bytes);
      }
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncFolder(dirname(path));
    return count;
  } catch (err) {
    await rm(temp, { force: true });
    throw outputError(err, path);
  }
}

/** Lines gathered into buffers of about WRITE_BYTES, each line followed by its newline. */
export async function* batches(lines: AsyncIterable<Buffer | string>): AsyncGenerator<{ bytes: Buffer; lines: number }> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const line of lines) {
    const bytes = typeof line === "string" ? Buffer.from(line) : line;
    pending.push(bytes, NEWLINE);
    size += bytes.length + 1;
    if (size >= WRITE_BYTES) {
      yield { bytes: Buffer.concat(pending, size), lines: pending.length / 2 };
      pending = [];
      size = 0;
    }
  }
  if (pending.length) yield { bytes: Buffer.concat(pending, size), lines: pending.length / 2 };
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
