/**
 * The page record's keys as docs/pipelines.md lists them ("What goes into the JSONL") are the
 * keys a run writes, in the same order: the list once lacked order_reason, untagged_glyphs,
 * columns and flags. Keys marked `?` appear only when they apply; the others on every page.
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";

let dir: string | undefined;
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

it("lists the keys of a page record that a run writes, in their order", async () => {
  const doc = await readFile("docs/pipelines.md", "utf8");
  const listed = /^- `\{"type":"page",(.*)\}`$/m.exec(doc)?.[1];
  expect(listed, "the page record's key list in docs/pipelines.md").toBeDefined();
  const keys = ["type", ...listed!.split(",").map((k) => k.trim())];
  const always = keys.filter((k) => !k.endsWith("?")).map((k) => k.replaceAll('"', ""));
  const optional = keys.filter((k) => k.endsWith("?")).map((k) => k.replaceAll(/["?]/g, ""));

  dir = await mkdtemp(join(tmpdir(), "pagestream-page-keys-"));
  await mkdir(join(dir, "in"));
  await copyFile("fixtures/two-pages.pdf", join(dir, "in", "memo.pdf"));
  await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n");
  const r = spawnSync(process.execPath, [resolve("dist/cli.js"), "run", "--progress", "never", "--log-level", "warn"], { cwd: dir, encoding: "utf8" });
  expect([r.status, r.stderr]).toEqual([0, ""]);
  const pages = (await readFile(join(dir, "out/pages.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const page of pages) {
    const written = Object.keys(page);
    expect(written.filter((k) => !optional.includes(k))).toEqual(always);
    // The optional keys written stand where the list puts them.
    expect(written).toEqual(keys.map((k) => k.replaceAll(/["?]/g, "")).filter((k) => written.includes(k)));
  }
});
