// Preloaded (`node --import`) into a measured child when GNU /usr/bin/time is not available:
// on exit, writes the process's own peak RSS (KiB, process.resourceUsage().maxRSS) to the file
// named by PAGESTREAM_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const out = process.env.PAGESTREAM_BENCH_RSS_FILE;
if (out) {
  process.on("exit", () => {
    try {
      writeFileSync(out, String(process.resourceUsage().maxRSS));
    } catch {
      // the parent reports the RSS as unknown
    }
  });
}
