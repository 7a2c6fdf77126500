/**
 * LanceDB across two nights of a growing folder (issue 34). The first night's folder has PDFs
 * without a title or headings; the second night's adds one with both. As pagestream wrote
 * chunks before — keys left out when empty, whole numbers read as floats — the second load
 * failed (`Found field not in schema: metadata.title`). With stable_keys and the columns of
 * chunk.schema.json (examples/lancedb/load-chunks.mjs, run as a user runs it) both nights
 * load as they are, integers stay integers, and a deleted PDF's chunks leave the table.
 */
import * as lancedb from "@lancedb/lancedb";
import { spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileLines, notePdf, paragraphs, pipelineFolder, run } from "./loader-run.js";

const LOADER = resolve("examples/lancedb/load-chunks.mjs");
let dir: string;

function load(file: string, table = "chunks"): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [LOADER, file, join(dir, "lancedb"), table], { cwd: dir, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function rows(table = "chunks"): Promise<Record<string, any>[]> {
  const db = await lancedb.connect(join(dir, "lancedb"));
  const t = await db.openTable(table);
  const all = (await t.query().toArray()).map((r) => r.toJSON() as Record<string, any>);
  t.close();
  db.close();
  return all.map((r) => ({ ...r, metadata: r.metadata.toJSON() }));
}

beforeAll(async () => {
  dir = await pipelineFolder([
    "{ type: jsonl, path: out/lancedb.jsonl, mode: snapshot, stable_keys: true, prune: true }",
    "{ type: jsonl, path: out/loose.jsonl, mode: snapshot, prune: true }",
  ]);
  await writeFile(join(dir, "in/notice-1.pdf"), await notePdf({ paragraphs: paragraphs(3, 1) }));
  await writeFile(join(dir, "in/notice-2.pdf"), await notePdf({ paragraphs: paragraphs(3, 2) }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("LanceDB, two nights of a growing folder", () => {
  it("loads both nights with stable keys and the columns of chunk.schema.json; fails the second night as the chunks were before", async () => {
    // Night 1: two PDFs without a title, headings or page labels.
    run(dir);
    const night1 = load("out/lancedb.jsonl");
    expect([night1.code, night1.stderr]).toEqual([0, ""]);
    const first = await fileLines(join(dir, "out/lancedb.jsonl"));
    expect(JSON.parse(night1.stdout)).toEqual({ table: "chunks", inserted: first.length, updated: 0, deleted: 0, rows: first.length });
    // Without stable keys LanceDB types the table from the first night's rows: no title there.
    const db = await lancedb.connect(join(dir, "lancedb"));
    const loose = await db.createTable("loose", (await fileLines(join(dir, "out/loose.jsonl"))) as never);
    expect(String(await loose.schema())).toContain("page_start:Float64");

    // Night 2: a PDF with a title and a heading joins them.
    await writeFile(join(dir, "in/berths.pdf"), await notePdf({ title: "Berth Closures", heading: "East Berth", paragraphs: paragraphs(3, 3) }));
    run(dir);
    const night2 = load("out/lancedb.jsonl");
    expect([night2.code, night2.stderr]).toEqual([0, ""]);
    const second = await fileLines(join(dir, "out/lancedb.jsonl"));
    expect(JSON.parse(night2.stdout)).toMatchObject({ inserted: second.length - first.length, deleted: 0, rows: second.length });
    await expect(loose.add((await fileLines(join(dir, "out/loose.jsonl"))) as never)).rejects.toThrow("Found field not in schema: metadata.title");
    loose.close();
    db.close();

    // The table holds the file as it is, integers as integers.
    const table = await rows();
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const asJson = (r: Record<string, any>) => JSON.parse(JSON.stringify(r, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
    expect(table.map(asJson).sort(byId)).toEqual([...second].sort(byId));
    expect(typeof table[0]!.chunk_index).toBe("bigint");
    expect(typeof table[0]!.metadata.page_start).toBe("bigint");
    expect(new Set(table.map((r) => r.metadata.title))).toEqual(new Set(["", "Berth Closures"]));
  });

  it("takes a PDF's chunks out of the table when it leaves the folder", async () => {
    await rm(join(dir, "in/notice-1.pdf"));
    run(dir);
    const live = await fileLines(join(dir, "out/lancedb.jsonl"));
    const r = load("out/lancedb.jsonl");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(JSON.parse(r.stdout)).toMatchObject({ inserted: 0, rows: live.length });
    expect(JSON.parse(r.stdout).deleted).toBeGreaterThan(0);
    expect((await rows()).map((row) => row.metadata.path).sort()).toEqual(live.map((c) => c.metadata.path).sort());
  });

  it("refuses a file it cannot load as it is, naming the file, the line and what to do", () => {
    const loose = load("out/loose.jsonl", "other");
    expect(loose.code).toBe(2);
    expect(loose.stderr).toMatch(/^load-chunks: out\/loose\.jsonl line 1 has no metadata title, .*: write it with stable_keys: true, or export with --stable-keys\n$/);
  });
});
