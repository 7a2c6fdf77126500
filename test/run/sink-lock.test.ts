/**
 * One writer per sink file, across pipelines: two pipelines with run folders of their own that
 * name one JSONL file — by the same path, or through a symlinked folder — both ran and both
 * exited 0, losing and tearing each other's records. The second is refused now, naming the run
 * and the pipeline that write the file, and the first finishes whole.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GATE_STAGE } from "../helpers/queue-runs.js";
import { canMountTmpfs } from "../helpers/tmpfs.js";

const CLI = resolve("dist/cli.js");

/** Whether a tmpfs can be mounted here (root: CI runs as root); the read-only sink folder needs one. */
const mountable = canMountTmpfs("sink-lock (the read-only sink folder test)");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-sink-lock-"));
  await mkdir(join(dir, "in"));
  await mkdir(join(dir, "gate"));
  await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in", "a-held.pdf"));
  await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in", "b.pdf"));
  // The first pipeline holds a-held.pdf at the gate until the test opens it: it is at work, its sink open, while the second starts.
  await writeFile(
    join(dir, "first.yaml"),
    `run_folder: out-first\nconcurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }, { type: ${GATE_STAGE}, hold: held, dir: gate }]\nsinks: [{ type: jsonl, records: pages, path: shared/pages.jsonl }]\n`,
  );
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** `pipeline.yaml` of the second pipeline: its own run folder, its sink at `sinkPath`. */
async function secondPipeline(sinkPath: string): Promise<void> {
  await writeFile(join(dir, "second.yaml"), `run_folder: out-second\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, records: pages, path: ${sinkPath} }]\n`);
}

/** Starts the first pipeline's run and resolves once it holds a document at the gate. */
async function startFirst(): Promise<{ run: ChildProcess; exited: Promise<number | null> }> {
  const run = spawn(process.execPath, [CLI, "run", "first.yaml", "--progress", "never"], { cwd: dir, stdio: "ignore" });
  const exited = new Promise<number | null>((r) => run.once("exit", r));
  while (!readdirSync(join(dir, "gate")).some((f) => f.startsWith("started-"))) {
    if (run.exitCode !== null) throw new Error(`the first run exited (${run.exitCode}) before the gate`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { run, exited };
}

const runSecond = () => spawnSync(process.execPath, [CLI, "run", "second.yaml", "--progress", "never"], { cwd: dir, encoding: "utf8" });

describe("two pipelines on one sink file", () => {
  for (const [name, setup, shown] of [
    ["by the same path", () => secondPipeline("shared/pages.jsonl"), "shared/pages.jsonl"],
    ["through a symlinked folder", async () => (await symlink(join(dir, "shared"), join(dir, "alias")), secondPipeline("alias/pages.jsonl")), "alias/pages.jsonl"],
  ] as const) {
    it(`refuses the second run while the first writes the file, ${name}, and the first finishes whole`, async () => {
      const first = await startFirst();
      let second;
      try {
        await setup();
        second = runSecond();
      } finally {
        await writeFile(join(dir, "gate", "release"), "");
      }
      expect(await first.exited).toBe(0);
      expect([second.status, second.stdout]).toEqual([2, ""]);
      const holder = `another run \\(pid ${first.run.pid}, started [0-9T:.Z-]+, pipeline ${join(dir, "first.yaml").replaceAll("/", "\\/")}\\)`;
      expect(second.stderr).toMatch(new RegExp(`^pagestream: ${holder} writes ${shown}: a file takes one writer; give this pipeline's sink a path of its own\\n$`));
      // The first run's records, each whole, one per document: the second wrote nothing.
      const lines = (await readFile(join(dir, "shared/pages.jsonl"), "utf8")).trimEnd().split("\n");
      const uris = [...new Set(lines.map((line) => (JSON.parse(line) as { uri: string }).uri))].sort();
      expect(uris.map((u) => u.split("/").pop())).toEqual(["a-held.pdf", "b.pdf"]);
      expect(readdirSync(join(dir, "shared")).sort()).toEqual(["pages.jsonl"]);
      // Once the first is done, the file is free.
      expect(runSecond().status).toBe(0);
    });
  }
});

describe.skipIf(!mountable)("a sink file whose folder is read-only", () => {
  it("stops the run, exit 2, naming the sink's lock file and the cause in a sentence", async () => {
    await mkdir(join(dir, "ro"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", join(dir, "ro")]);
    try {
      await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, records: pages, path: ro/pages.jsonl }]\n");
      const run = spawnSync(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
      expect([run.status, run.stderr]).toEqual([2, "pagestream: cannot lock ro/pages.jsonl.lock: the file system is read-only (EROFS)\n"]);
    } finally {
      spawnSync("umount", [join(dir, "ro")]);
    }
  });
});
