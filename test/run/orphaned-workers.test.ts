/**
 * A run killed with SIGKILL cannot stop its workers: each must notice by itself that its parent
 * is gone, even while it is busy extracting (its event loop not turning), and end — not go on
 * for the rest of its document (an orphan lived up to 49 s on a long one).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";
import { waitFor } from "../helpers/wait-for.js";

const CLI = resolve("dist/cli.js");
const BUSY_STAGE = resolve("test/helpers/busy-stage.mjs");

let dir: string;
let run: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-orphans-"));
  await mkdir(join(dir, "in"));
  await mkdir(join(dir, "gate"));
});
afterEach(async () => {
  // Lets a worker that outlived its run stop spinning, and be gone.
  await writeFile(join(dir, "gate", "release"), "");
  run?.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    // A zombie has exited: only its parent's wait is missing.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

it("ends every worker of a SIGKILLed run, the busy ones too", { timeout: 60_000 }, async () => {
  for (const name of ["a-busy.pdf", "b-busy.pdf"]) await writeFile(join(dir, "in", name), longDocumentPdf(2));
  await writeFile(
    join(dir, "pipeline.yaml"),
    `concurrency: 2\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }, { type: ${BUSY_STAGE}, hold: busy, dir: gate }]\nsinks: [{ type: jsonl, path: out/pages.jsonl, records: pages }]\n`,
  );
  run = spawn(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, stdio: "ignore" });
  const busy = await waitFor("both workers busy", async () => {
    const marks = (await readdir(join(dir, "gate"))).filter((f) => f.startsWith("busy-"));
    return marks.length === 2 && marks;
  });
  const workers = busy.map((mark) => Number(mark.slice("busy-".length)));
  for (const mark of busy) expect(Number(await readFile(join(dir, "gate", mark), "utf8"))).toBe(run.pid);
  run.kill("SIGKILL");
  // Gone long before the spin's own end (two minutes): the bound is generous for a loaded machine, not a measure.
  await waitFor("the orphaned workers to end", () => workers.every((pid) => !alive(pid)), 20);
});
