/**
 * Creates the folder an output goes in, or says why it cannot be: a recursive mkdir reports a
 * read-only file system as ENOENT, so the first missing folder is created on its own to learn
 * the real cause (EROFS, EACCES, ENOSPC).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { outputError } from "./output-error.js";

export async function ensureFolder(path: string, shown = path): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
  } catch (err) {
    let first = path;
    while (!existsSync(dirname(first)) && dirname(first) !== first) first = dirname(first);
    const cause = await mkdir(first).then(
      () => err,
      (direct: unknown) => direct,
    );
    throw outputError(cause, path, "create the folder", shown);
  }
}
