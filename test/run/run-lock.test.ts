/**
 * One run per run folder: a second one stops with a sentence naming the holder, a lock left by
 * a killed run is taken over, and one taken on another host is respected.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";
import { LOCK_FILE, lockRunFolder, RunFolderLocked } from "../../src/run/run-lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-lock-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A pid that no process has: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

describe("the run folder's lock", () => {
  it("is held until released, and a second taker is told who holds it", async () => {
    const lock = await lockRunFolder(dir, "out/");
    const info = JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8"));
    expect(info).toMatchObject({ pid: process.pid, host: hostname() });
    // A live process on this host (our parent) holding it.
    const { process_start: _ours, ...rest } = info;
    const otherHolder = { ...rest, pid: process.ppid };
    await writeFile(join(dir, LOCK_FILE), JSON.stringify(otherHolder));
    await expect(lockRunFolder(dir, "out/")).rejects.toThrow(new RunFolderLocked("out/", otherHolder, true));
    await expect(lockRunFolder(dir, "out/")).rejects.toThrow(`another run (pid ${process.ppid}, started ${info.started_at}) holds out/`);
    await writeFile(join(dir, LOCK_FILE), JSON.stringify(info));
    await lock.release();
    await (await lockRunFolder(dir, "out/")).release();
  });

  it("takes over a lock whose process is gone, or whose pid another process now has", async () => {
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), started_at: "2026-01-01T00:00:00.000Z", process_start: "1" }));
    const lock = await lockRunFolder(dir, "out/");
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    await lock.release();
    // Our parent lives, but it is not the process that wrote this lock (another start time).
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), started_at: "2026-01-01T00:00:00.000Z", process_start: "1" }));
    await (await lockRunFolder(dir, "out/")).release();
    // A torn lock file (a crash while it was written) is stale too.
    await writeFile(join(dir, LOCK_FILE), '{"pid": 12');
    await (await lockRunFolder(dir, "out/")).release();
  });

  it("respects a lock taken on another host, and says how to remove it", async () => {
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: "nightly-02", started_at: "2026-01-01T00:00:00.000Z" }));
    await expect(lockRunFolder(dir, "out/")).rejects.toThrow(/^another run \(pid \d+ on nightly-02, started 2026-01-01T00:00:00.000Z\) holds out\/: if that run is gone, delete .*run\.lock$/);
  });

  it("does not release a lock another run took over", async () => {
    const lock = await lockRunFolder(dir, "out/");
    const theirs = JSON.stringify({ pid: process.ppid, host: hostname(), started_at: "2026-01-02T00:00:00.000Z" });
    await writeFile(join(dir, LOCK_FILE), theirs);
    await lock.release();
    expect(await readFile(join(dir, LOCK_FILE), "utf8")).toBe(theirs);
  });
});

describe("pagestream run on a locked run folder", () => {
  it("refuses a second run at once, exit 2, while the first goes on and finishes", async () => {
    await mkdir(join(dir, "in"));
    // Long enough that the first run is still at work when the second starts, on any machine.
    for (let i = 0; i < 6; i++) await writeFile(join(dir, "in", `log${i}.pdf`), longDocumentPdf(150));
    await writeFile(join(dir, "pipeline.yaml"), "concurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n");
    const cli = resolve("dist/cli.js");
    const first = spawn(process.execPath, [cli, "run", "--progress", "never", "--progress-every", "1"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    first.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => first.once("exit", r));
    while (!/ documents · /.test(stderr)) await new Promise((r) => setTimeout(r, 20));
    const second = spawnSync(process.execPath, [cli, "run"], { cwd: dir, encoding: "utf8" });
    expect([second.status, second.stdout]).toEqual([2, ""]);
    expect(second.stderr).toMatch(new RegExp(`^pagestream: another run \\(pid ${first.pid}, started [0-9T:.Z-]+\\) holds out/\\n$`));
    expect(await exited).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8")).summary.documents).toBe(6);
  });

  it("takes the folder over after a run was killed with SIGKILL, and finishes the work", async () => {
    await mkdir(join(dir, "in"));
    for (let i = 0; i < 6; i++) await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in", `q${i}.pdf`));
    await writeFile(join(dir, "pipeline.yaml"), "concurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n");
    const cli = resolve("dist/cli.js");
    const first = spawn(process.execPath, [cli, "run", "--progress", "never", "--progress-every", "1"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    first.stderr.on("data", (d) => (stderr += d));
    while (!/ documents · /.test(stderr)) await new Promise((r) => setTimeout(r, 20));
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    expect(JSON.parse(await readFile(join(dir, "out", LOCK_FILE), "utf8")).pid).toBe(first.pid);
    const again = spawnSync(process.execPath, [cli, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
    expect(again.status).toBe(0);
    const report = JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8"));
    expect(report.summary.documents + report.summary.skipped).toBe(6);
  });
});
