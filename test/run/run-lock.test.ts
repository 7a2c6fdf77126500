/**
 * One run per run folder: a second one stops with a sentence naming the holder; the lock is held
 * by the holder's process and dies with it, so a lock file left by a killed run is simply taken;
 * a run folder that cannot be locked is named with the cause.
 */
import { execFileSync, fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";
import { LOCK_FILE } from "../../src/pipeline/run-folder-files.js";
import { lockRunFolder, RunFolderLocked } from "../../src/run/run-lock.js";
import { RunRefused } from "../../src/run/run-refused.js";
import { canMountTmpfs } from "../helpers/tmpfs.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-lock-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Whether a tmpfs can be mounted here (root: CI runs as root); the read-only run folder needs one. */
const mountable = canMountTmpfs("run-lock (the read-only run folder test)");

/** A pid that no process has: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

/** A process of its own that takes the run folder's lock as a run does (test/helpers/lock-contender.mjs). */
async function contender(): Promise<ChildProcess & { take(folder: string): Promise<{ won: boolean; message?: string }> }> {
  const child = fork(resolve("test/helpers/lock-contender.mjs"), { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = () => new Promise<{ op: string; won: boolean; message?: string }>((r) => child.once("message", r));
  await next();
  return Object.assign(child, {
    take(folder: string) {
      const answer = next();
      child.send({ op: "take", folder });
      return answer;
    },
  });
}

describe("the run folder's lock", () => {
  it("is held until released, and a second taker (even in the same process) is told who holds it", async () => {
    const lock = await lockRunFolder(dir, "out/");
    const info = JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8"));
    expect(info).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(lockRunFolder(dir, "out/")).rejects.toThrow(new RunFolderLocked("out/", info));
    await expect(lockRunFolder(dir, "out/")).rejects.toThrow(`another run (pid ${process.pid}, started ${info.started_at}) holds out/`);
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    await (await lockRunFolder(dir, "out/")).release();
  });

  it("takes a lock file whose run is gone, whatever it says, since no process holds it", async () => {
    for (const left of [
      JSON.stringify({ pid: deadPid(), host: hostname(), started_at: "2026-01-01T00:00:00.000Z", process_start: "1" }),
      // A live pid on this host: the lock file does not make a holder, the kernel's lock does.
      JSON.stringify({ pid: process.ppid, host: hostname(), started_at: "2026-01-01T00:00:00.000Z" }),
      JSON.stringify({ pid: 4242, host: "nightly-02", started_at: "2026-01-01T00:00:00.000Z" }),
      '{"pid": 12',
    ]) {
      await writeFile(join(dir, LOCK_FILE), left);
      const lock = await lockRunFolder(dir, "out/");
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
      await lock.release();
    }
  });

  it("is held by the holder's process, and free the moment that process is killed with SIGKILL", async () => {
    const holder = await contender();
    try {
      expect(await holder.take(dir)).toMatchObject({ won: true });
      await expect(lockRunFolder(dir, "out/")).rejects.toThrow(new RegExp(`^another run \\(pid ${holder.pid}, started [0-9T:.Z-]+\\) holds out/$`));
      holder.kill("SIGKILL");
      await new Promise((r) => holder.once("exit", r));
      // Its file is left behind, naming it; nobody holds it.
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8")).pid).toBe(holder.pid);
      await (await lockRunFolder(dir, "out/")).release();
    } finally {
      holder.kill("SIGKILL");
    }
  });

  it("says which file cannot be locked and why, in a sentence, not the system's text", async () => {
    await mkdir(join(dir, LOCK_FILE));
    const refused = await lockRunFolder(dir, "out/").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RunRefused);
    expect((refused as Error).message).toBe("cannot lock out/run.lock: it is a folder, not a file (EISDIR)");
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

  it("takes the folder after a run was killed with SIGKILL, and finishes the work", async () => {
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

describe.skipIf(!mountable)("pagestream run on a read-only run folder", () => {
  it("stops, exit 2, with run.lock and the cause in a sentence, not the system's EROFS text", async () => {
    await mkdir(join(dir, "in"));
    await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in", "q.pdf"));
    await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: pages.jsonl }]\n");
    await mkdir(join(dir, "out"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", join(dir, "out")]);
    try {
      const run = spawnSync(process.execPath, [resolve("dist/cli.js"), "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
      expect([run.status, run.stderr]).toEqual([2, "pagestream: cannot lock out/run.lock: the file system is read-only (EROFS)\n"]);
      expect(existsSync(join(dir, "pages.jsonl"))).toBe(false);
    } finally {
      spawnSync("umount", [join(dir, "out")]);
    }
  });
});
