/**
 * Two files whose names used to share a uri — caf<0xE9>.pdf (not UTF-8) and one literally named
 * caf\xe9.pdf — are two documents in the archive, run after run: neither replaces the other.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { longDocumentPdf } from "../../fixtures/hostile.mjs";

const CLI = resolve("dist/cli.js");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-names-"));
  await mkdir(join(dir, "in"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const run = () => spawnSync(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });

function archived(): { uri: string; pages: number }[] {
  const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT uri, pages FROM documents ORDER BY uri").all() as { uri: string; pages: number }[];
  } finally {
    db.close();
  }
}

it("keeps caf<0xE9>.pdf and a file literally named caf\\xe9.pdf as two documents, stable across runs", { timeout: 60_000 }, async () => {
  await writeFile(Buffer.from(`${dir}/in/caf\xe9.pdf`, "latin1"), longDocumentPdf(1));
  await writeFile(join(dir, "in", "caf\\xe9.pdf"), longDocumentPdf(2));
  await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: in, stable_seconds: 0 }\nstages: [{ type: extract }]\nsinks: [{ type: sqlite, path: out/archive.sqlite, prune: true }]\n");
  const expected = [
    { uri: join(dir, "in", "caf\\x5cxe9.pdf"), pages: 2 },
    { uri: join(dir, "in", "caf\\xe9.pdf"), pages: 1 },
  ];
  const first = run();
  expect([first.status, first.stderr]).toEqual([0, expect.stringContaining("2 document(s) ingested")]);
  expect(archived()).toEqual(expected);
  const second = run();
  expect([second.status, second.stderr]).toEqual([0, expect.stringContaining("0 document(s) ingested (0 pages), 0 failed, 2 skipped unchanged")]);
  expect(second.stderr).not.toMatch(/pruned|replaced/);
  expect(archived()).toEqual(expected);
});
