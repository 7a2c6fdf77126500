import { readFile, readdir, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { DocumentError } from "../core/document-error.js";
import { defineSource } from "../core/plugin.js";
import type { SourceItem } from "../core/records.js";
import { globOptions, pathFilter, type PathFilter } from "./path-filter.js";

const options = z.strictObject({
  path: z.string().min(1).describe("The folder to read, relative to the pipeline file."),
  ...globOptions("path"),
  follow_symlinks: z
    .boolean()
    .default(true)
    .describe("Follow symbolic links to files and folders outside `path`. Links to anything inside it are skipped (it is listed under its real name), and so are loops."),
});

export default defineSource({
  type: "folder",
  summary: "Every file under a folder that matches the include globs, recursively, in sorted order.",
  options,
  examples: [{ path: "fixtures/samples" }, { path: "/srv/intake", include: ["**/*.pdf"], exclude: ["**/drafts/**"] }],
  create(opts, context) {
    const root = resolve(context.baseDir, opts.path);
    return {
      list: () => walk(root, { filter: pathFilter(opts), followSymlinks: opts.follow_symlinks }),
    };
  },
});

interface WalkOptions {
  filter: PathFilter;
  followSymlinks: boolean;
}

/**
 * Depth-first, each folder's entries sorted by name, so a run over the same tree always meets
 * the files in the same order. One folder is read at a time: nothing is listed ahead.
 */
async function* walk(root: string, options: WalkOptions): AsyncGenerator<SourceItem> {
  const rootStat = await stat(root).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`source folder ${root} cannot be read: ${err.code === "ENOENT" ? "it does not exist" : err.message}`);
  });
  if (!rootStat.isDirectory()) throw new Error(`source folder ${root} is not a folder`);
  const realRoot = await realpath(root);
  yield* walkFolder(root, root, { realRoot, visited: new Set([realRoot]) }, options);
}

interface WalkState {
  realRoot: string;
  /** Real paths of the folders read so far: a link back to one of them would loop. */
  visited: Set<string>;
}

async function* walkFolder(root: string, dir: string, state: WalkState, options: WalkOptions): AsyncGenerator<SourceItem> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join("/");
    if (options.filter.excludes(rel)) continue;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      if (!options.followSymlinks) continue;
      const real = await realpath(path).catch(() => undefined);
      // A dangling link, or one to something inside the folder, which is listed on its own
      // under its real name (and a link to a folder above would loop).
      if (!real || isInside(real, state.realRoot)) continue;
      const target = await stat(real).catch(() => undefined);
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
    }
    if (isDir) {
      const real = await realpath(path).catch(() => undefined);
      if (!real || state.visited.has(real)) continue;
      state.visited.add(real);
      yield* walkFolder(root, path, state, options);
    } else if (isFile && options.filter.includes(rel)) {
      const info = await stat(path).catch(() => undefined);
      if (!info) continue; // removed while listing
      yield fileItem(path, info.size, info.mtimeMs);
    }
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

export function fileItem(path: string, size: number, mtimeMs: number): SourceItem {
  return {
    uri: path,
    size,
    mtimeMs,
    fingerprint: `size:${size} mtime:${Math.round(mtimeMs)}`,
    read: async () => {
      try {
        return new Uint8Array(await readFile(path));
      } catch (err) {
        throw readError(err as NodeJS.ErrnoException);
      }
    },
  };
}

function readError(err: NodeJS.ErrnoException): Error {
  if (err.code === "ENOENT") return new DocumentError("not_found", "the file was removed after it was listed", { cause: err });
  if (err.code === "EACCES" || err.code === "EPERM") return new DocumentError("access_denied", "permission denied: this user cannot read the file", { cause: err });
  return err;
}
