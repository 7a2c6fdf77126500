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

export async function replaceFile(path: string, lines: AsyncIterable<string>): Promise<number> {
  const temp = `${path}.${process.pid}.tmp`;
  let count = 0;
  try {
    const handle = await open(temp, "w");
    try {
      let pending: string[] = [];
      let size = 0;
      for await (const line of lines) {
        pending.push(line);
        size += line.length + 1;
        count++;
        if (size >= WRITE_BYTES) {
          await handle.write(pending.join("\n") + "\n");
          pending = [];
          size = 0;
        }
      }
      if (pending.length) await handle.write(pending.join("\n") + "\n");
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

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
