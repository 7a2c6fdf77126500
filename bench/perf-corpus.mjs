// Where the shared throughput corpus is, for the bench scripts: PAGESTREAM_BENCH_CORPUS (the folder
// holding the PDFs, or one holding perf/ or corpus/perf/), else ../shared/corpus/perf beside the
// project. Returns the folder found (undefined when none) and every place it looked.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export function findPerfCorpus(root) {
  const env = process.env.PAGESTREAM_BENCH_CORPUS;
  const candidates = env ? [resolve(env), join(resolve(env), "perf"), join(resolve(env), "corpus", "perf")] : [join(root, "..", "shared", "corpus", "perf")];
  const hasPdfs = (d) => {
    try {
      return statSync(d).isDirectory() && readdirSync(d).some((f) => /\.pdf$/i.test(f));
    } catch {
      return false;
    }
  };
  return { dir: candidates.find(hasPdfs), tried: candidates };
}
