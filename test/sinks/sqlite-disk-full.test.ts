/**
 * The archive's batch is committed by a timer when documents come slowly: a disk that fills up
 * under that commit (a real tmpfs the test mounts) must end the run like any other sink error —
 * a sentence naming the archive, run-summary.json, the lock released — not crash the process
 * from the timer. Mounting needs root (CI runs as root); elsewhere the test is skipped, and says so.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";
import { OutputError } from "../../src/core/output-error.js";
import type { DocumentResult } from "../../src/core/records.js";
import sqlite from "../../src/sinks/sqlite/sink.js";
import { canMountTmpfs, Tmpfs } from "../helpers/tmpfs.js";

const CLI = resolve("dist/cli.js");
const GATE_STAGE = resolve("test/helpers/gate-stage.mjs");
/** Room left on the archive's disk: its shared-memory index (32 KiB) and the origin it records at open fit, a batch's commit does not. */
const SLACK = 40 * 1024;

const mountable = canMountTmpfs("sqlite-disk-full (the timer-commit disk-full test)");

let dir: string;
const tmpfs = new Tmpfs();
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-archive-full-"));
  await mkdir(join(dir, "in"));
  await mkdir(join(dir, "gate"));
});
afterEach(async () => {
  // A run the fix did not end is still waiting on the gate.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  tmpfs.unmountAll();
  await rm(dir, { recursive: true, force: true });
});


/** Runs `pagestream run` to its end (the gate never opens: only a failure can end it). */
function run(): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done) => child.on("close", (status) => done({ status, stderr })));
}

describe.skipIf(!mountable)("an archive whose disk fills up under the batch timer's commit", () => {
  it("ends the run with a sentence naming the archive, a summary and the lock released", { timeout: 60_000 }, async () => {
    tmpfs.mount(join(dir, "archive"), "size=1m");
    const pipeline = (settings: string) =>
      writeFile(
        join(dir, "pipeline.yaml"),
        `${settings}concurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }, { type: ${GATE_STAGE}, hold: held, dir: gate }]\nsinks: [{ type: sqlite, path: archive/archive.sqlite }]\n`,
      );
    // A first run makes the archive (its schema and index) while there is room.
    await pipeline("");
    expect((await run()).status).toBe(0);
    // Then the disk is all but full: the archive opens (its shared-memory index and the run's
    // origin fit), a batch's commit does not.
    const { bavail, bsize } = statfsSync(join(dir, "archive"));
    await writeFile(join(dir, "archive", "filler"), Buffer.alloc(Math.max(0, bavail * bsize - SLACK)));
    // a is too large, so it fails without a worker and its row is delivered at once, into a
    // batch that only the timer commits: b is held for ever, and nothing but a failure of that
    // commit can end the run.
    await pipeline("max_file_bytes: 8000\n");
    await writeFile(join(dir, "in", "a-large.pdf"), longDocumentPdf(30));
    await writeFile(join(dir, "in", "b-held.pdf"), longDocumentPdf(1));
    const full = await run();
    expect(full.status).toBe(1);
    expect(full.stderr).toMatch(/^pagestream: cannot write .*\/archive\/archive\.sqlite: no space left on the device \(SQLITE_FULL\)\n$/m);
    expect(full.stderr).not.toMatch(/\n\s+at /); // a sentence, not a stack
    const report = JSON.parse(await readFile(join(dir, "out", "run-summary.json"), "utf8")) as { exit_code: number; error: string };
    expect(report.exit_code).toBe(1);
    expect(report.error).toMatch(/archive\.sqlite: no space left on the device/);
    expect(existsSync(join(dir, "out", "run.lock"))).toBe(false);
  });

  it("tells the run of the timer's failed commit and throws it from the next call", async () => {
    tmpfs.mount(join(dir, "archive"), "size=1m");
    let failed!: (err: unknown) => void;
    const reported = new Promise<unknown>((resolve) => (failed = resolve));
    const sink = await sqlite.create(sqlite.options.parse({ path: "archive/archive.sqlite" }), { baseDir: dir, warn: () => {}, fail: failed });
    const { bavail, bsize } = statfsSync(join(dir, "archive"));
    await writeFile(join(dir, "archive", "filler"), Buffer.alloc(bavail * bsize));
    const uri = join(dir, "in", "a.pdf");
    const result: DocumentResult = { status: "failed", uri, error: { type: "error", uri, code: "damaged", message: "the parser gave up", documentId: "f".repeat(64) }, warnings: [] };
    await sink.write(result); // into the open batch, in memory
    const err = await reported;
    expect(err).toBeInstanceOf(OutputError);
    expect(err).toMatchObject({ code: "SQLITE_FULL", path: join(dir, "archive", "archive.sqlite") });
    await expect(sink.write(result)).rejects.toBe(err);
    await expect(sink.checkpoint()).rejects.toBe(err);
    await sink.abort();
  });
});
