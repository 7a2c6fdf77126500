/**
 * What an extraction worker is started with (src/run/worker-process.ts): Node's profiler switches
 * given to the command reach its workers, where the extraction runs, so `node --cpu-prof … run`
 * profiles them too; nothing else of the command's switches does.
 */
import { describe, expect, it } from "vitest";
import { profilerSwitches } from "../../src/run/worker-process.js";

describe("profiler switches for a worker", () => {
  it("passes --cpu-prof and --heap-prof with their folder and interval, in either spelling", () => {
    expect(profilerSwitches(["--cpu-prof", "--cpu-prof-dir", "/tmp/p", "--cpu-prof-interval=500", "--heap-prof", "--heap-prof-dir=/tmp/h"])).toEqual([
      "--cpu-prof",
      "--cpu-prof-dir=/tmp/p",
      "--cpu-prof-interval=500",
      "--heap-prof",
      "--heap-prof-dir=/tmp/h",
    ]);
  });

  it("leaves out a fixed profile name (every worker would write one file) and every other switch", () => {
    expect(profilerSwitches(["--max-old-space-size=512", "--cpu-prof", "--cpu-prof-name", "run.cpuprofile", "--enable-source-maps", "--cpu-prof-name=x"])).toEqual(["--cpu-prof"]);
  });
});
