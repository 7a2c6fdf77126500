/**
 * Outputs on a file system that fills up or is read-only (a real tmpfs the test mounts): the run
 * stops with a sentence naming the file and the cause, leaves no torn record, and once space is
 * freed the next run completes from its last checkpoint. Mounting needs root (CI runs as root);
 * elsewhere these tests are skipped, and say so.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";
import { canMountTmpfs, Tmpfs } from "../helpers/tmpfs.js";

const CLI = resolve("dist/cli.js");

const mountable = canMountTmpfs("output-failures (the disk-full and read-only tests)");

let dir: string;
const tmpfs = new Tmpfs();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-output-"));
  await mkdir(join(dir, "in"));
  for (let i = 0; i < 10; i++) await writeFile(join(dir, "in", `log-${i}.pdf`), longDocumentPdf(20));
});
afterEach(async () => {
  tmpfs.unmountAll();
  await rm(dir, { recursive: true, force: true });
});


const run = (args: string[] = []) => spawnSync(process.execPath, [CLI, "run", "--progress", "never", ...args], { cwd: dir, encoding: "utf8" });

describe.skipIf(!mountable)("outputs that cannot be written", () => {
  it("stops on a full disk with the file and the cause, leaves whole records, and completes once space is freed", async () => {
    tmpfs.mount(join(dir, "out"), "size=4m");
    // Most of the file system taken by something else: the run's outputs fill the rest.
    await writeFile(join(dir, "out/filler"), Buffer.alloc(3_800_000));
    await writeFile(join(dir, "pipeline.yaml"), "concurrency: 1\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, records: pages, path: out/pages.jsonl }]\n");
    const full = run();
    expect(full.status).toBe(1);
    expect(full.stderr).toMatch(/^pagestream: cannot write .*\/out\/(pages\.jsonl|run-state\.sqlite): no space left on the device \((ENOSPC|SQLITE_FULL)\)\n$/m);
    const text = await readFile(join(dir, "out/pages.jsonl"), "utf8");
    expect(text === "" || text.endsWith("\n")).toBe(true);
    for (const line of text.split("\n").filter(Boolean)) JSON.parse(line);
    await rm(join(dir, "out/filler"));
    const again = run();
    expect([again.status, again.stderr]).toEqual([0, expect.stringContaining("ingested")]);
    const pages = (await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; uri: string; page: number });
    const live = pages.filter((r) => r.type === "page").map((r) => `${r.uri}#${r.page}`);
    expect(new Set(live).size).toBe(live.length); // every page once
    expect(live.length).toBe(10 * 20);
  });

  it("says a read-only folder is read-only, before it writes anything", async () => {
    tmpfs.mount(join(dir, "ro"), "ro,size=64k");
    await writeFile(join(dir, "pipeline.yaml"), "run_folder: ro/state\nsource: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: ro/pages.jsonl }]\n");
    const r = run();
    expect([r.status, r.stderr]).toEqual([1, "pagestream: cannot create the folder ro/state/: the file system is read-only (EROFS)\n"]);
  });
});
