/**
 * Creates the folder an output goes in, or says why it cannot be: a recursive mkdir reports a
 * read-only file system as ENOENT, so the first missing folder is created on its own to learn
 * the real cause (EROFS, EACCES, ENOSPC).
 */
import { constants, existsSync } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
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

/**
 * Whether an output could be written at `path` — a file, or a folder — without writing
 * anything: it exists as that kind and may be written, or the nearest folder above it that
 * exists may be written (it would be created there). Throws an OutputError naming the path and
 * the cause (`cannot write out/chunks.jsonl: the file system is read-only (EROFS)`).
 */
export async function checkWritable(path: string, kind: "file" | "folder", shown = path): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info) {
    if (kind === "file" && !info.isFile()) throw outputError(Object.assign(new Error("it is a folder, not a file"), { code: "EISDIR" }), path, "write", shown);
    if (kind === "folder" && !info.isDirectory()) throw outputError(Object.assign(new Error("it is a file, not a folder"), { code: "ENOTDIR" }), path, "write in", shown);
    await access(path, constants.W_OK).catch((err: unknown) => {
      throw outputError(err, path, kind === "file" ? "write" : "write in", shown);
    });
    return;
  }
  let parent = dirname(path);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  const above = await stat(parent);
  if (!above.isDirectory()) throw outputError(Object.assign(new Error(`${parent} is a file, not a folder`), { code: "ENOTDIR" }), path, "create", shown);
  await access(parent, constants.W_OK | constants.X_OK).catch((err: unknown) => {
    throw outputError(err, path, "create", shown);
  });
}
