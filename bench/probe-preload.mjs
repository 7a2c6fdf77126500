// Preloaded (`node --expose-gc --import`) into every measured node child by bench/run.mjs.
// On exit it writes, as JSON, to the file named by PAGESTREAM_BENCH_PROBE_FILE:
// - maxRssKiB: the process's own peak RSS (process.resourceUsage().maxRSS), used when GNU
//   /usr/bin/time is not available;
// - cpuSeconds: user + system CPU time, likewise a fallback for GNU time;
// - heapAfterGcKiB: the V8 heap still in use after one full GC at exit, i.e. what the run left
//   reachable. It should not grow with the corpus: if 4× the documents leave more behind,
//   something keeps per-document state alive.
// Nothing runs before exit, so the measured work is not disturbed.
import { writeFileSync } from "node:fs";

const out = process.env.PAGESTREAM_BENCH_PROBE_FILE;
if (out) {
  process.on("exit", () => {
    try {
      const usage = process.resourceUsage();
      const maxRssKiB = usage.maxRSS;
      const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
      let heapAfterGcKiB = null;
      if (typeof globalThis.gc === "function") {
        globalThis.gc();
        heapAfterGcKiB = Math.round(process.memoryUsage().heapUsed / 1024);
      }
      writeFileSync(out, JSON.stringify({ maxRssKiB, cpuSeconds, heapAfterGcKiB }));
    } catch {
      // the parent reports the values as unknown
    }
  });
}
