/**
 * What a user loading the outputs in one go gets (issue 14 §1, §2): `pagestream export` and the
 * jsonl sink's snapshot mode give the live records — each document once, in its last version —
 * after replaced, deleted and copied files, while the log keeps every version for consumers
 * that follow it. Two copies of one PDF are two documents with ids of their own, in the JSONL,
 * the export and the archive; deleting one copy withdraws only its chunks.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
let dir: string;

const PIPELINE = `source: { type: folder, path: in, stable_seconds: 0 }
stages: [{ type: extract }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, max_tokens: 128, overlap_tokens: 16, min_tokens: 16 }]
sinks:
  - { type: jsonl, path: out/chunks.jsonl, prune: true }
  - { type: jsonl, path: out/live.jsonl, mode: snapshot, prune: true }
  - { type: sqlite, path: out/archive.sqlite, prune: true }
`;

function pagestream(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const run = () => pagestream(["run", "pipeline.yaml", "--progress", "never", "--log-level", "warn"]);
const parse = (text: string) => (text === "" ? [] : text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>));
const file = async (name: string) => parse(await readFile(join(dir, name), "utf8"));
const exported = (args: string[] = []) => {
  const r = pagestream(["export", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return parse(r.stdout);
};
function archive() {
  const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
  const chunks = db.prepare("SELECT c.id, d.uri, d.path FROM chunks c JOIN documents d ON d.id = c.document_row ORDER BY c.seq").all() as { id: string; uri: string; path: string }[];
  const documents = db.prepare("SELECT uri, path FROM documents ORDER BY uri").all() as { uri: string; path: string }[];
  db.close();
  return { chunks, documents };
}
const name = (uri: string) => uri.split("/").pop();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-export-"));
  await mkdir(join(dir, "in/2026"), { recursive: true });
  for (const f of ["meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"]) await copyFile(join("fixtures/samples", f), join(dir, "in", f));
  // The same bytes under a second name, in a subfolder.
  await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in/2026/copy-of-report.pdf"));
  await writeFile(join(dir, "pipeline.yaml"), PIPELINE);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("two copies of one file", () => {
  it("are two documents with ids of their own: no id repeats in the chunk file, the export or the archive", async () => {
    expect(pagestream(["export"]).stderr).toMatch(/^pagestream: no run of pipeline\.yaml has committed out\/chunks\.jsonl yet \(out\/run-state\.sqlite has no checkpoint for it\): run the pipeline first\n$/);
    expect(run().code).toBe(0);
    const chunks = await file("out/chunks.jsonl");
    const ids = chunks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const report = chunks.filter((c) => name(c.metadata.source_uri) === "quarterly-report.pdf");
    const copy = chunks.filter((c) => name(c.metadata.source_uri) === "copy-of-report.pdf");
    // Same content, same document id, same text; other ids.
    expect(copy.map((c) => [c.document_id, c.text])).toEqual(report.map((c) => [c.document_id, c.text]));
    expect(copy.some((c, i) => c.id === report[i]!.id)).toBe(false);
    expect(copy[0]!.metadata.path).toBe("2026/copy-of-report.pdf");
    expect(exported().map((c) => c.id)).toEqual(ids);
    const held = archive();
    expect(new Set(held.chunks.map((c) => c.id)).size).toBe(held.chunks.length);
    expect(new Set(held.chunks.map((c) => c.id))).toEqual(new Set(ids));
    expect(held.documents.map((d) => d.path)).toEqual(["2026/copy-of-report.pdf", "meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"]);
  });

  it("deleting one copy withdraws only its chunks, from the live view and the archive; the log says so with a tombstone", async () => {
    const before = await file("out/chunks.jsonl");
    const kept = before.filter((c) => name(c.metadata.source_uri) === "quarterly-report.pdf").map((c) => c.id);
    await rm(join(dir, "in/2026/copy-of-report.pdf"));
    expect(run().code).toBe(0);
    const log = await file("out/chunks.jsonl");
    expect(log.slice(before.length)).toEqual([{ type: "tombstone", uri: join(dir, "in/2026/copy-of-report.pdf"), document_id: before.find((c) => name(c.metadata.source_uri) === "copy-of-report.pdf")!.document_id, reason: "removed" }]);
    const live = exported();
    expect(live.filter((c) => name(c.metadata.source_uri) === "quarterly-report.pdf").map((c) => c.id)).toEqual(kept);
    expect(live.some((c) => name(c.metadata.source_uri) === "copy-of-report.pdf")).toBe(false);
    expect(new Set(archive().chunks.map((c) => c.id))).toEqual(new Set(live.map((c) => c.id)));
  });
});

describe("the live chunks", () => {
  it("after a replaced file and a deleted one: the log holds every version, export and the snapshot only the live ones, as the archive does", async () => {
    await copyFile("fixtures/two-pages.pdf", join(dir, "in/service-agreement.pdf"));
    await rm(join(dir, "in/meeting-minutes.pdf"));
    expect(run().code).toBe(0);
    const log = await file("out/chunks.jsonl");
    const live = exported();
    const held = archive();
    // A naive load of the log (chunks, tombstones dropped) takes withdrawn chunks too.
    expect(log.filter((c) => c.type === undefined).length).toBeGreaterThan(live.length);
    expect(live.map((c) => c.id).sort()).toEqual(held.chunks.map((c) => c.id).sort());
    expect(new Set(live.map((c) => name(c.metadata.source_uri)))).toEqual(new Set(["quarterly-report.pdf", "service-agreement.pdf"]));
    expect(live.every((c) => c.type === undefined)).toBe(true);
    // Each live chunk exactly as the log wrote it, in the order it was written.
    const written = log.filter((c) => c.type === undefined).map((c) => JSON.stringify(c));
    const order = live.map((c) => written.indexOf(JSON.stringify(c)));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The snapshot file is the export, made at the end of the run.
    expect(await file("out/live.jsonl")).toEqual(live);
    expect((await file("out/live.documents.jsonl")).map((d) => name(d.uri))).toEqual(exported(["--records", "documents"]).map((d) => name(d.uri)));
  });

  it("gives one document record per live file with --records documents, and lays chunks out for a loader with --shape", () => {
    const documents = exported(["--records", "documents"]);
    expect(documents.map((d) => [d.type, name(d.uri), d.path])).toEqual([
      ["document", "quarterly-report.pdf", "quarterly-report.pdf"],
      ["document", "service-agreement.pdf", "service-agreement.pdf"],
    ]);
    const flat = exported();
    const langchain = exported(["--shape", "langchain"]);
    expect(langchain.map((c) => Object.keys(c))).toEqual(flat.map(() => ["pageContent", "metadata", "id"]));
    expect(langchain.map((c) => [c.id, c.pageContent, c.metadata.document_id, c.metadata.chunk_index])).toEqual(flat.map((c) => [c.id, c.text, c.document_id, c.chunk_index]));
    const llamaindex = exported(["--shape", "llamaindex"]);
    expect(llamaindex.map((c) => [c.id_, c.text])).toEqual(flat.map((c) => [c.id, c.text]));
  });

  it("reads only what the last run committed: lines a run is still writing after its checkpoint are not exported", async () => {
    const live = exported();
    await appendFile(join(dir, "out/chunks.jsonl"), JSON.stringify({ type: "tombstone", uri: live[0]!.metadata.source_uri, reason: "replaced" }) + '\n{"id":"half a li');
    expect(exported()).toEqual(live);
  });

  it("writes a file whole with --out, and says so on stderr", async () => {
    const r = pagestream(["export", "--out", "export.jsonl", "--shape", "llamaindex"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const lines = await file("export.jsonl");
    expect(r.stderr).toBe(`pagestream: exported ${lines.length} chunk(s) from out/chunks.jsonl to export.jsonl\n`);
    expect(lines.every((c) => typeof c.id_ === "string")).toBe(true);
  });

  it("refuses, with a sentence and exit 2, a file that no longer matches the run state, and records the pipeline does not write", async () => {
    await writeFile(join(dir, "out/chunks.documents.jsonl"), "");
    const stale = pagestream(["export", "--records", "documents"]);
    expect([stale.code, stale.stderr]).toEqual([2, "pagestream: out/chunks.documents.jsonl no longer holds what the run state recorded (it was replaced, cut or deleted since the last run): run the pipeline again, which writes it anew\n"]);
    const pages = pagestream(["export", "--records", "pages"]);
    expect([pages.code, pages.stderr]).toEqual([2, "pagestream: pipeline.yaml has no jsonl sink that writes page records: add one (`- type: jsonl`; `mode: snapshot` keeps the live file for you), or read the archive with SQL\n"]);
  });
});
