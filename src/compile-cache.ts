/**
 * Node 22.1+ can keep the code it compiles on disk and reuse it on the next start. Every
 * `pagestream extract` and every extraction worker compiles the command's own modules again;
 * with the cache, a start reads them compiled. Modules loaded after this call are cached
 * (commands and components are imported lazily, so nearly all). pdf.js, which pagestream runs as
 * a script, has a code cache of its own on every Node (script-code-cache.ts).
 * Node's own switches apply: `NODE_DISABLE_COMPILE_CACHE=1` turns it off, `NODE_COMPILE_CACHE`
 * names the folder (default: node-compile-cache in the system's temp folder). On Node 20 it does
 * nothing.
 */
import module from "node:module";

interface CompileCacheApi {
  enableCompileCache?: () => unknown;
  getCompileCacheDir?: () => string | undefined;
}

const api = module as unknown as CompileCacheApi;

export function enableCompileCache(): void {
  try {
    api.enableCompileCache?.();
  } catch {
    // A cache folder that cannot be written: start as without it.
  }
}

/** The folder this process caches compiled code in, for the processes it starts; undefined when off. */
export function compileCacheDir(): string | undefined {
  return api.getCompileCacheDir?.() || undefined;
}
