/**
 * A compile cache for one large script, on every Node (Node 20 has no compile cache at all, and
 * the one of Node 22+, src/compile-cache.ts, keeps modules, not scripts): V8 compiles it with
 * the code it compiled at an earlier start (`vm.Script` with `cachedData`), and the process that
 * ran it first writes that code out once it has been used
 * (`createCachedData()` then holds the functions compiled lazily while it ran, not only the top
 * level). Used in the extraction worker for pdf.js (see pdfjs-loader.ts), where compiling it
 * was ~0.1 s of every start, and for the worker's own bundle (run/extraction-worker-start.ts).
 *
 * Why not v8-compile-cache: it hooks `require` for every CommonJS module of the process and
 * saves the code as compiled before running, without the lazily compiled functions; pdf.js is
 * one file, loaded by us, and is worth most of the cache.
 *
 * A script run here cannot `import()`: on Node 20 a script compiled from cached data loses its
 * dynamic import callback ("A dynamic import callback was not specified"), so it is given none
 * at all, and behaves the same with a cache and without; the worker imports through its entry's
 * (runtime-import.ts). pdf.js imports only for what
 * pagestream does not use (its fake worker, its WebAssembly decoders' JavaScript fallbacks, which
 * need a `wasmUrl` it is never given), and those calls reject as they did before.
 *
 * A cache is an optimisation and never a reason to fail: a folder that cannot be read or
 * written, a file that is cut short or damaged, or one V8 refuses (another Node, other flags)
 * and the script compiles from source as without it. The file is keyed by the script's content
 * and Node's version and flags, written under a temporary name and renamed into place (a reader never
 * sees half a file), and carries a checksum of its bytes, since V8 only checks a cache's header
 * (sound bytecode for the wrong code would be run as it is). Node's own switches apply:
 * `NODE_DISABLE_COMPILE_CACHE` turns it off, `NODE_COMPILE_CACHE` names the folder (default:
 * pagestream in the user's cache folder, ~/.cache or $XDG_CACHE_HOME). A file no start has read
 * for 30 days (an older pagestream's, Node's) is removed when another is written.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import vm from "node:vm";

export interface CachedScript {
  /** What the script's function returned. */
  result: unknown;
  /** True when the script was compiled from a cache V8 took. */
  fromCache: boolean;
}

/**
 * The scripts run in this process whose code is not cached yet: one list for the process, kept on
 * a global, because the extraction worker's start and the worker it runs are two bundles, each
 * with a copy of this module (extraction-worker-start.ts), and the worker saves both.
 */
const UNSAVED = Symbol.for("pagestream.unsavedCodeCaches");
const unsaved: Array<() => void> = ((globalThis as { [UNSAVED]?: Array<() => void> })[UNSAVED] ??= []);

/**
 * Writes the code compiled so far of every script run here that did not come from the cache;
 * once, and never throws. Called when the code that matters has run: an extraction worker calls
 * it after its first document, so the parser's functions are in the cache too.
 */
export function saveCodeCaches(): void {
  for (const save of unsaved.splice(0)) save();
}

/** sha1 is for finding damage and telling contents apart, not a defence: whoever can write the user's cache folder can run code anyway. */
const CHECKSUM = "sha1";
const CHECKSUM_BYTES = 20;

/**
 * Compiles `source` (a function body whose parameters are `parameterNames`) as a function, with
 * cached code when there is some for this source, and calls it with `args`. `name` is the
 * script's file, as stack traces show it.
 */
export function runScriptWithCodeCache(name: string, source: string, parameterNames: readonly string[], args: readonly unknown[]): CachedScript {
  const wrapped = `(function (${parameterNames.join(", ")}) {${source}\n})`;
  const cacheFile = codeCacheFile(wrapped);
  const cachedData = cacheFile ? readCodeCache(cacheFile) : undefined;
  const script = new vm.Script(wrapped, { filename: name, cachedData });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheFile && !fromCache) unsaved.push(() => writeCodeCache(cacheFile, script));
  return { result: (script.runInThisContext() as (...a: unknown[]) => unknown)(...args), fromCache };
}

/** The cache file for this source on this Node, or undefined when caching is off. */
function codeCacheFile(source: string): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) return undefined;
  let folder = process.env.NODE_COMPILE_CACHE;
  try {
    folder ||= join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pagestream");
  } catch {
    return undefined; // no home folder
  }
  // V8 takes a cache only from a process with the same flags (the worker's heap cap is one).
  const key = createHash(CHECKSUM).update(source).update(process.execArgv.join(" ")).digest("hex").slice(0, 16);
  return join(folder, `script-${key}-node${process.version}-${process.arch}.v8cache`);
}

/** A cache file of this module's (another pagestream, Node or flag set writes one of its own). */
const CACHE_FILE = /^script-[0-9a-f]{16}-node.+\.v8cache(?:\.\d+\.partial)?$/u;

/**
 * A cache file nobody has read for this long is removed when another is written: each pagestream
 * upgrade, Node version or worker heap size leaves one of ~2 MB behind. A file that is read is
 * marked used (its mtime) at most once a day.
 */
const UNUSED_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

function readCodeCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const payload = bytes.subarray(CHECKSUM_BYTES);
  if (bytes.length <= CHECKSUM_BYTES || !createHash(CHECKSUM).update(payload).digest().equals(bytes.subarray(0, CHECKSUM_BYTES))) return undefined;
  markUsed(file);
  return payload;
}

function markUsed(file: string): void {
  try {
    if (Date.now() - statSync(file).mtimeMs > DAY_MS) utimesSync(file, new Date(), new Date());
  } catch {
    // A cache folder that cannot be written: the file may be pruned one day and written again.
  }
}

/** Removes the cache files (and leftover partial writes) in `folder` that have not been used for UNUSED_DAYS. */
function pruneUnused(folder: string, keep: string): void {
  try {
    for (const name of readdirSync(folder)) {
      const file = join(folder, name);
      if (file === keep || !CACHE_FILE.test(name)) continue;
      if (Date.now() - statSync(file).mtimeMs > UNUSED_DAYS * DAY_MS) rmSync(file, { force: true });
    }
  } catch {
    // Pruning is housekeeping: a file gone meanwhile or a folder not ours to clean is left.
  }
}

function writeCodeCache(file: string, script: vm.Script): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    const payload = script.createCachedData();
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(partial, Buffer.concat([createHash(CHECKSUM).update(payload).digest(), payload]));
    renameSync(partial, file);
    pruneUnused(join(file, ".."), file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written, or it cannot be removed either: the next writer replaces it.
    }
  }
}
