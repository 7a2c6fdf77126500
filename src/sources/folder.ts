import { constants, readFileSync, statSync, type Dirent } from "node:fs";
import { access, readdir, realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DocumentError } from "../core/document-error.js";
import { defineSource, type Source } from "../core/plugin.js";
import type { SourceChange, SourceItem } from "../core/records.js";
import { fileItem } from "./folder-item.js";
import { nameText } from "./folder-names.js";
import { filesMatching, LossyNames, REPLACEMENT } from "./lossy-names.js";
import { globOptions, pathFilter, type PathFilter } from "./path-filter.js";
import { importAtRunTime } from "../runtime-import.js";

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
  readsFolder: (opts, baseDir) => resolve(baseDir, opts.path),
  origin: (opts, baseDir) => ({ path: resolve(baseDir, opts.path) }),
  async probe(opts, context) {
    await checkReadable(opts.path, resolve(context.baseDir, opts.path));
    return `folder ${opts.path} can be read`;
  },
  examples: [{ path: "fixtures/samples" }, { path: "/srv/intake", include: ["**/*.pdf"], exclude: ["**/drafts/**"], watch: true, stable_seconds: 5 }],
  async create(opts, context): Promise<Source> {
    const root = resolve(context.baseDir, opts.path);
    // A run checks the folder before its sinks open: a missing one must not leave empty output files behind.
    if (context.purpose === "run") await checkReadable(opts.path, root);
    const walkOptions = { filter: pathFilter(opts), followSymlinks: opts.follow_symlinks, stableMs: opts.stable_seconds * 1000 };
    // The files the listing found under names that are not UTF-8: the watcher, which sees them lossily, needs them.
    const lossyNames = new LossyNames();
    return {
      list: () => walk(root, { ...walkOptions, skipped: context.skipped, notUtf8: (bytes, uri) => lossyNames.remember(bytes, uri) }),
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
      watch: (signal) => watchFolder(root, walkOptions, lossyNames, signal, context.warn),
    };
  },
});

/** Throws, naming the folder as the pipeline gives it, when it is missing, not a folder or not readable. */
async function checkReadable(path: string, root: string): Promise<void> {
  const info = await stat(root).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`source folder ${path} cannot be read: ${err.code === "ENOENT" ? `it does not exist (${root})` : err.message}`);
  });
  if (!info.isDirectory()) throw new Error(`source folder ${path} is not a folder (${root})`);
  await access(root, constants.R_OK | constants.X_OK).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`source folder ${path} cannot be read: ${err.code === "EACCES" || err.code === "EPERM" ? "permission denied" : err.message} (${root})`);
  });
}

interface WalkOptions {
  filter: PathFilter;
  followSymlinks: boolean;
  /** A file is read once it has not changed for this long. */
  stableMs: number;
  /** Told of every entry the listing passes over, and why (filters, hidden files, links). */
  skipped?(entry: { uri: string; reason: string }): void;
  /** Told of every file listed whose relative path (`bytes`) is not UTF-8. */
  notUtf8?(bytes: Buffer, uri: string): void;
}

/**
 * Depth-first, each folder's entries sorted by name (their bytes), so a run over the same tree
 * always meets the files in the same order. One folder is read at a time: nothing is listed
 * ahead. Names are read as bytes: one that is not valid UTF-8 is listed under an escaped form
 * (`\xff`, folder-names.ts) and read by its bytes, never dropped. A subfolder that cannot be listed becomes an
 * item with a problem (an error record for that folder); the rest of the tree is still listed.
 */
async function* walk(root: string, options: WalkOptions): AsyncGenerator<SourceItem> {
  const rootStat = await stat(root).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`source folder ${root} cannot be read: ${err.code === "ENOENT" ? "it does not exist" : err.message}`);
  });
  if (!rootStat.isDirectory()) throw new Error(`source folder ${root} is not a folder`);
  const realRoot = await realpath(root);
  yield* walkFolder(root, undefined, { realRoot, visited: new Set([realRoot]) }, options);
}

interface WalkState {
  realRoot: string;
  /** Real paths of the folders read so far: a link back to one of them would loop. */
  visited: Set<string>;
}

/** A path under the source's folder: as shown (the uri, the globs), and as bytes (what the file system calls it). */
interface RelPath {
  text: string;
  bytes: Buffer;
  /** False when a name in it is not valid UTF-8: `text` shows it escaped, `bytes` are what read() uses. */
  exact: boolean;
}

async function* walkFolder(root: string, rel: RelPath | undefined, state: WalkState, options: WalkOptions): AsyncGenerator<SourceItem> {
  const dir = rel ? bytesPath(root, rel.bytes) : Buffer.from(root);
  let entries: Dirent<Buffer>[];
  try {
    entries = await readdir(dir, { withFileTypes: true, encoding: "buffer" });
  } catch (err) {
    if (!rel) throw err;
    yield unlistedFolder(root, rel, err as NodeJS.ErrnoException);
    return;
  }
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const entry of entries) {
    const child = childPath(rel, entry.name);
    const path = bytesPath(root, child.bytes);
    const uri = join(root, child.text);
    if (options.filter.excludes(child.text)) {
      options.skipped?.({ uri, reason: "excluded" });
      continue;
    }
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      if (!options.followSymlinks) {
        options.skipped?.({ uri, reason: "symlink" });
        continue;
      }
      const real = await realpath(path).catch(() => undefined);
      // A dangling link, or one to something inside the folder, which is listed on its own
      // under its real name (and a link to a folder above would loop).
      if (!real || isInside(real, state.realRoot)) {
        options.skipped?.({ uri, reason: real ? "symlink inside the folder" : "dangling symlink" });
        continue;
      }
      const target = await stat(real).catch(() => undefined);
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
    }
    if (isDir) {
      const real = await realpath(path).catch(() => undefined);
      if (!real || state.visited.has(real)) continue;
      state.visited.add(real);
      yield* walkFolder(root, child, state, options);
    } else if (isFile) {
      if (!options.filter.includes(child.text)) {
        options.skipped?.({ uri, reason: child.text.split("/").some((part) => part.startsWith(".")) ? "hidden" : "not included" });
        continue;
      }
      const info = await stat(path).catch(() => undefined);
      if (!info) continue; // removed while listing
      if (!child.exact) options.notUtf8?.(child.bytes, uri);
      yield fileItem(child.text, uri, info.size, info.mtimeMs, child.exact ? undefined : child.bytes);
    } else {
      options.skipped?.({ uri, reason: "not a file" });
    }
  }
}

function childPath(parent: RelPath | undefined, name: Buffer): RelPath {
  const decoded = nameText(name);
  if (!parent) return { text: decoded.text, bytes: Buffer.from(name), exact: decoded.exact };
  return { text: `${parent.text}/${decoded.text}`, bytes: Buffer.concat([parent.bytes, SLASH, name]), exact: parent.exact && decoded.exact };
}

const SLASH = Buffer.from("/");

function bytesPath(root: string, rel: Buffer): Buffer {
  return Buffer.concat([Buffer.from(root), SLASH, rel]);
}

/** A subfolder that cannot be listed, as an item whose problem becomes its error record. */
function unlistedFolder(root: string, rel: RelPath, err: NodeJS.ErrnoException): SourceItem {
  const denied = err.code === "EACCES" || err.code === "EPERM";
  return {
    uri: join(root, rel.text),
    path: rel.text,
    size: 0,
    mtimeMs: 0,
    fingerprint: `unlisted:${err.code ?? "error"}`,
    problem: {
      code: denied ? "access_denied" : "read_failed",
      message: `this folder cannot be listed (${denied ? "permission denied" : (err.code ?? err.message)}): the files in it were not read; the run lists it again next time`,
    },
  };
}

function isInside(path: string, folder: string): boolean {
  // The root folder ends with its separator already ("/"): everything is inside it.
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Where an item of this source is on this machine; an item that is not under the folder is refused. */
function itemPath(root: string, item: SourceItem): string | Buffer {
  const refuse = () => new DocumentError("read_failed", `not an item of this folder source (${root}): ${JSON.stringify(item.path ?? item.uri)}`);
  if (typeof item.path_bytes === "string") {
    const rel = Buffer.from(item.path_bytes, "base64");
    const parts = rel.toString("latin1").split("/");
    if (rel.length === 0 || rel[0] === 0x2f || parts.some((p) => p === ".." || p === "." || p === "")) throw refuse();
    return bytesPath(root, rel);
  }
  const rel = typeof item.path === "string" ? item.path : undefined;
  const path = rel === undefined ? undefined : resolve(root, ...rel.split("/"));
  if (rel === undefined || rel === "" || isAbsolute(rel) || !path || !isInside(path, root) || path === root) throw refuse();
  return path;
}

/** Attempts at a whole read before a file that keeps changing is reported. */
const READ_ATTEMPTS = 5;

/**
 * Reads a file once it has stopped changing: it must be older than `stableMs`, and the same
 * size and mtime after the read as before it, so a file still being written is never taken
 * half-written.
 *
 * The calls are synchronous: a document is read where it is worked on, by an extraction worker
 * that takes one document at a time, so nothing waits behind them; awaited, each was a round
 * trip through libuv's thread pool, six a file, 0.2–0.3 ms of a small scan's 1–2 ms (issue 33).
 */
async function readSettled(path: string | Buffer, stableMs: number): Promise<Uint8Array> {
  for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
    const before = synchronously(() => statSync(path));
    const age = Date.now() - before.mtimeMs;
    // A modification time in the future (another machine's clock) cannot age: the size check decides.
    if (age >= 0 && age < stableMs) {
      await sleep(Math.min(stableMs, stableMs - age));
      continue;
    }
    const bytes = synchronously(() => readFileSync(path));
    const after = synchronously(() => statSync(path));
    if (after.size === before.size && after.mtimeMs === before.mtimeMs && bytes.length === after.size) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    await sleep(Math.max(stableMs, 100));
  }
  throw new DocumentError("read_failed", `the file kept changing while it was read (${READ_ATTEMPTS} attempts): is it still being written?`);
}

/** What `call` returns, its error as the source reports a failed read. */
function synchronously<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw readError(err as NodeJS.ErrnoException);
  }
}

function readError(err: NodeJS.ErrnoException): Error {
  if (err.code === "ENOENT") return new DocumentError("not_found", "the file was removed after it was listed", { cause: err });
  if (err.code === "EACCES" || err.code === "EPERM") return new DocumentError("access_denied", "permission denied: this user cannot read the file", { cause: err });
  return err;
}

/**
 * The folder's changes, from chokidar: a file is reported once its size has stayed the same
 * for `stableMs` (awaitWriteFinish), so a slow copy is ingested once, whole. The watcher starts
 * when this is called; changes wait in a queue until the run takes them. chokidar's paths are
 * strings: one with a name that is not UTF-8 arrives lossy (U+FFFD), and is found again by its
 * bytes (lossy-names.ts) before it is reported, under the uri the listing gives it.
 */
function watchFolder(root: string, options: WalkOptions, lossyNames: LossyNames, signal: AbortSignal, warn: (message: string) => void): AsyncIterable<SourceChange> & { ready: Promise<void> } {
  const queue: SourceChange[] = [];
  let wake: (() => void) | undefined;
  const push = (change: SourceChange) => {
    queue.push(change);
    wake?.();
  };
  const rel = (path: string) => relative(root, path).split(sep).join("/");
  // Lossy names waiting to be quiet for the stable time, by their path under the folder.
  const quieting = new Map<string, NodeJS.Timeout>();
  const watcher = importAtRunTime<typeof import("chokidar")>("chokidar").then(({ watch }) => {
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
    // Under the uri the listing gives the same file (a name that looks escaped is escaped in both).
    const upsertFile = (bytes: Buffer, info: { size: number; mtimeMs: number }) => {
      const { text, exact } = nameText(bytes);
      const uri = join(root, text);
      if (!options.filter.takesPath(text)) return;
      if (!exact) lossyNames.remember(bytes, uri);
      push({ type: "upsert", item: fileItem(text, uri, info.size, info.mtimeMs, exact ? undefined : bytes) });
    };
    // Changes are reported in the order they happened, lossy ones (found again asynchronously) included.
    let reported = Promise.resolve();
    const inOrder = (report: () => void | Promise<void>) => {
      reported = reported.then(report).catch((err: unknown) => warn(`folder source ${root}: a change could not be followed (${err instanceof Error ? err.message : String(err)})`));
    };
    const upsert = (path: string, info?: { size: number; mtimeMs: number }) => {
      const r = rel(path);
      if (info && !r.includes(REPLACEMENT)) inOrder(() => upsertFile(Buffer.from(r), info));
    };
    w.on("add", upsert);
    w.on("change", upsert);
    w.on("unlink", (path) => {
      const r = rel(path);
      if (r.includes(REPLACEMENT)) return;
      const { text } = nameText(Buffer.from(r));
      if (options.filter.takesPath(text)) inOrder(() => push({ type: "remove", uri: join(root, text) }));
    });
    // chokidar drops a name that is not UTF-8 (it stats the lossy path and finds nothing), but its
    // raw events still give the folder and the lossy name: once that name has been quiet for the
    // stable time, every file it can mean is reported (one unchanged since it was read is skipped
    // by the run), and every file seen under it that is gone is reported removed.
    w.on("raw", (_event, name, details) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof name !== "string" || !name.includes(REPLACEMENT) || typeof watched !== "string") return;
      const r = rel(basename(watched) === name ? watched : join(watched, name));
      if (r.startsWith("..")) return;
      clearTimeout(quieting.get(r));
      quieting.set(r, setTimeout(() => {
        quieting.delete(r);
        inOrder(async () => {
          const found = await filesMatching(root, r);
          for (const file of found) upsertFile(file.bytes, file);
          const present = new Set(found.map((file) => join(root, nameText(file.bytes).text)));
          for (const uri of lossyNames.gone(r, present)) push({ type: "remove", uri });
        });
      }, Math.max(options.stableMs, 100)));
    });
    return w;
  });
  // chokidar's first scan (ignoreInitial) passes over what is there; from its "ready" on, every
  // file added is reported.
  const ready = watcher.then((w) => new Promise<void>((resolve) => {
    w.once("ready", () => resolve());
    signal.addEventListener("abort", () => resolve(), { once: true });
  }));
  signal.addEventListener("abort", () => {
    void watcher.then((w) => w.close());
    for (const timer of quieting.values()) clearTimeout(timer);
    wake?.();
  }, { once: true });
  return {
    ready,
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
