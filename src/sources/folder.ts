import { readFile, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DocumentError } from "../core/document-error.js";
import { defineSource, type Source } from "../core/plugin.js";
import type { SourceChange, SourceItem } from "../core/records.js";
import { globOptions, pathFilter, type PathFilter } from "./path-filter.js";

const options = z.strictObject({
  path: z.string().min(1).describe("The folder to read, relative to the pipeline file."),
  ...globOptions("path"),
  follow_symlinks: z
    .boolean()
    .default(true)
    .describe("Follow symbolic links to files and folders outside `path`. Links to anything inside it are skipped (it is listed under its real name), and so are loops."),
  watch: z
    .boolean()
    .default(false)
    .describe("Keep running after the listing: ingest files as they are added or replaced, and prune deleted ones from the sinks that prune, until stopped (SIGINT/SIGTERM). Same as `pagestream run --watch`."),
  stable_seconds: z
    .number()
    .min(0)
    .default(2)
    .describe("A file is read only once its size and modification time have not changed for this long, so a file still being copied in is never read half-written."),
});

export default defineSource({
  type: "folder",
  summary: "Every file under a folder that matches the include globs, recursively, in sorted order.",
  options,
  examples: [{ path: "fixtures/samples" }, { path: "/srv/intake", include: ["**/*.pdf"], exclude: ["**/drafts/**"], watch: true, stable_seconds: 5 }],
  create(opts, context): Source {
    const root = resolve(context.baseDir, opts.path);
    const walkOptions = { filter: pathFilter(opts), followSymlinks: opts.follow_symlinks, stableMs: opts.stable_seconds * 1000 };
    return {
      list: () => walk(root, walkOptions),
      read: async (item) => readSettled(itemPath(root, item), walkOptions.stableMs),
      async count(signal) {
        let items = 0;
        let bytes = 0;
        for await (const item of walk(root, walkOptions)) {
          if (signal.aborted) break;
          items++;
          bytes += item.size;
        }
        return { items, bytes };
      },
      watch: (signal) => watchFolder(root, walkOptions, signal),
    };
  },
});

interface WalkOptions {
  filter: PathFilter;
  followSymlinks: boolean;
  /** A file is read once it has not changed for this long. */
  stableMs: number;
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
      yield fileItem(rel, path, info.size, info.mtimeMs);
    }
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

/**
 * A listed file as data: `path` is where it is under the source's folder (with "/"), which is
 * what a worker reads from its own copy of the source, wherever that folder is mounted there.
 */
export function fileItem(path: string, uri: string, size: number, mtimeMs: number): SourceItem {
  return { uri, path, size, mtimeMs, fingerprint: `size:${size} mtime:${Math.round(mtimeMs)}` };
}

/** Where an item of this source is on this machine; an item that is not under the folder is refused. */
function itemPath(root: string, item: SourceItem): string {
  const rel = typeof item.path === "string" ? item.path : undefined;
  const path = rel === undefined ? undefined : resolve(root, ...rel.split("/"));
  if (rel === undefined || rel === "" || isAbsolute(rel) || !path || !isInside(path, root) || path === root) {
    throw new DocumentError("read_failed", `not an item of this folder source (${root}): ${JSON.stringify(item.path ?? item.uri)}`);
  }
  return path;
}

/** Attempts at a whole read before a file that keeps changing is reported. */
const READ_ATTEMPTS = 5;

/**
 * Reads a file once it has stopped changing: it must be older than `stableMs`, and the same
 * size and mtime after the read as before it, so a file still being written is never taken
 * half-written.
 */
async function readSettled(path: string, stableMs: number): Promise<Uint8Array> {
  for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
    const before = await stat(path).catch(rethrowAsReadError);
    const age = Date.now() - before.mtimeMs;
    // A modification time in the future (another machine's clock) cannot age: the size check decides.
    if (age >= 0 && age < stableMs) {
      await sleep(Math.min(stableMs, stableMs - age));
      continue;
    }
    const bytes = await readFile(path).catch(rethrowAsReadError);
    const after = await stat(path).catch(rethrowAsReadError);
    if (after.size === before.size && after.mtimeMs === before.mtimeMs && bytes.length === after.size) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    await sleep(Math.max(stableMs, 100));
  }
  throw new DocumentError("read_failed", `the file kept changing while it was read (${READ_ATTEMPTS} attempts): is it still being written?`);
}

function rethrowAsReadError(err: NodeJS.ErrnoException): never {
  throw readError(err);
}

function readError(err: NodeJS.ErrnoException): Error {
  if (err.code === "ENOENT") return new DocumentError("not_found", "the file was removed after it was listed", { cause: err });
  if (err.code === "EACCES" || err.code === "EPERM") return new DocumentError("access_denied", "permission denied: this user cannot read the file", { cause: err });
  return err;
}

/**
 * The folder's changes, from chokidar: a file is reported once its size has stayed the same
 * for `stableMs` (awaitWriteFinish), so a slow copy is ingested once, whole. The watcher starts
 * when this is called; changes wait in a queue until the run takes them.
 */
function watchFolder(root: string, options: WalkOptions, signal: AbortSignal): AsyncIterable<SourceChange> {
  const queue: SourceChange[] = [];
  let wake: (() => void) | undefined;
  const push = (change: SourceChange) => {
    queue.push(change);
    wake?.();
  };
  const rel = (path: string) => relative(root, path).split(sep).join("/");
  const watcher = import("chokidar").then(({ watch }) => {
    const w = watch(root, {
      ignoreInitial: true,
      alwaysStat: true,
      followSymlinks: options.followSymlinks,
      awaitWriteFinish: { stabilityThreshold: Math.max(options.stableMs, 100), pollInterval: 100 },
      ignored: (path, stats) => {
        const r = rel(path);
        if (r === "" || r.startsWith("..")) return false;
        if (options.filter.excludes(r)) return true;
        return stats?.isFile() === true && !options.filter.includes(r);
      },
    });
    const upsert = (path: string, info?: { size: number; mtimeMs: number }) => {
      if (!options.filter.takesPath(rel(path))) return;
      if (info) push({ type: "upsert", item: fileItem(rel(path), path, info.size, info.mtimeMs) });
    };
    w.on("add", upsert);
    w.on("change", upsert);
    w.on("unlink", (path) => {
      if (options.filter.takesPath(rel(path))) push({ type: "remove", uri: path });
    });
    return w;
  });
  signal.addEventListener("abort", () => {
    void watcher.then((w) => w.close());
    wake?.();
  }, { once: true });
  return {
    async *[Symbol.asyncIterator]() {
      await watcher;
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
  };
}
