import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The shared corpus lives beside the repository (`../shared`), on developers' machines and in
 * CI alike; PAGESTREAM_SHARED points elsewhere. Tests that need it fail when it is missing
 * rather than pass without checking anything, unless PAGESTREAM_NO_SHARED=1 says to skip them.
 */
export const SHARED = resolve(process.env.PAGESTREAM_SHARED ?? "../shared");

export function sharedCorpus(set: string): string {
  const dir = resolve(SHARED, "corpus", set);
  if (!existsSync(dir) && process.env.PAGESTREAM_NO_SHARED !== "1") {
    throw new Error(`the shared corpus is not at ${dir}; set PAGESTREAM_SHARED, or PAGESTREAM_NO_SHARED=1 to skip these tests`);
  }
  return dir;
}

export const skipShared = process.env.PAGESTREAM_NO_SHARED === "1";
