/**
 * `import()` of what pagestream loads as it runs (a stage, source or sink given by its path,
 * the tokenizer's encoding, better-sqlite3, chokidar), for code that may run as a script: the
 * extraction worker is run from a code cache (src/run/extraction-worker-start.ts), and on Node 20
 * a script compiled from cached data has no dynamic import of its own ("A dynamic import callback
 * was not specified", script-code-cache.ts). The process's entry then lends its own, which
 * resolves from the same folder; everywhere else this is `import()`.
 */
const LENT = Symbol.for("pagestream.import");

type Importer = (specifier: string) => Promise<unknown>;

export function importAtRunTime<T>(specifier: string): Promise<T> {
  const lent = (globalThis as { [LENT]?: Importer })[LENT];
  return (lent ? lent(specifier) : import(specifier)) as Promise<T>;
}

/** Lends the caller's `import()` to the code it runs as a script (see above). */
export function lendImport(importer: Importer): void {
  (globalThis as { [LENT]?: Importer })[LENT] = importer;
}
