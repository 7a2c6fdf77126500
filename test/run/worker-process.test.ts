/**
 * What an extraction worker is started with (src/run/worker-process.ts): Node's profiler switches
 * given to the command reach its workers, where the extraction runs, so `node --cpu-prof … run`
 * profiles them too; nothing else of the command's switches does. A worker allowed a heap of
 * 1 GiB or more gets a young generation twice V8's size (on Node 20), and starts its old
 * generation at 128 MiB (an eighth of a smaller cap). On Node 20 its optimising compiler inlines
 * half V8's own budget.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { inliningBudget, oldGenerationStart, profilerSwitches, workerSwitches, youngGeneration } from "../../src/run/worker-process.js";

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

describe("a worker's young generation", () => {
  const node20 = "11.3.244.8-node.33";
  it("doubles Node 20's semi-spaces for a worker allowed 1 GiB or more, and keeps V8's own for a smaller heap", () => {
    expect(youngGeneration(1024, node20)).toEqual(["--max-semi-space-size=32"]);
    expect(youngGeneration(8192, node20)).toEqual(["--max-semi-space-size=32"]);
    expect(youngGeneration(768, node20)).toEqual(["--max-semi-space-size=24"]);
    expect(youngGeneration(512, node20)).toEqual([]);
    expect(youngGeneration(128, node20)).toEqual([]);
  });

  it("leaves a later V8, which sizes its young generation from the heap, to its own", () => {
    expect(youngGeneration(1024, "13.6.233.17-node.37")).toEqual([]);
  });

  it("never makes this Node's young generation smaller: the heap's limit grows by it or stays", () => {
    const limit = (args: string[]) => Number(execFileSync(process.execPath, [...args, "-p", "require('v8').getHeapStatistics().heap_size_limit"], { encoding: "utf8" }));
    const own = limit(["--max-old-space-size=1024"]);
    const given = limit(["--max-old-space-size=1024", ...youngGeneration(1024)]);
    if (Number(process.versions.v8.split(".")[0]) <= 11) expect(given).toBeGreaterThan(own);
    else expect(given).toBe(own);
  });
});

describe("a worker's old generation", () => {
  it("starts at 128 MiB for a worker allowed 1 GiB or more, and at an eighth of a smaller cap", () => {
    expect(oldGenerationStart(1024)).toEqual(["--initial-old-space-size=128"]);
    expect(oldGenerationStart(8192)).toEqual(["--initial-old-space-size=128"]);
    expect(oldGenerationStart(512)).toEqual(["--initial-old-space-size=64"]);
    expect(oldGenerationStart(100)).toEqual(["--initial-old-space-size=12"]);
    expect(oldGenerationStart(7)).toEqual([]);
  });

  it("is a switch this Node takes, beside the worker's others: a worker starts with them all", () => {
    const switches = workerSwitches(1024);
    expect(switches).toEqual(["--max-old-space-size=1024", ...youngGeneration(1024), "--initial-old-space-size=128", ...inliningBudget()]);
    // A switch Node does not know ends it at once ("bad option"), before any code runs.
    const started = JSON.parse(execFileSync(process.execPath, [...switches, "-p", "JSON.stringify(process.execArgv)"], { encoding: "utf8" })) as string[];
    expect(started.slice(0, switches.length)).toEqual(switches);
  });
});

describe("a worker's inlining budget", () => {
  it("halves Node 20's cumulative inlining budget, and leaves a later V8 (with Maglev) its own", () => {
    expect(inliningBudget("11.3.244.8-node.33")).toEqual(["--max-inlined-bytecode-size-cumulative=460"]);
    expect(inliningBudget("13.6.233.17-node.37")).toEqual([]);
    expect(workerSwitches(1024, "11.3.244.8-node.33")).toContain("--max-inlined-bytecode-size-cumulative=460");
    expect(workerSwitches(1024, "13.6.233.17-node.37").some((s) => s.startsWith("--max-inlined"))).toBe(false);
  });
});
