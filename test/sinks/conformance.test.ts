/** Every built-in sink passes the same contract (test/helpers/sink-conformance.ts, docs/components.md). */
import Database from "better-sqlite3";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe } from "vitest";
import { describeSinkConformance } from "../helpers/sink-conformance.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-conformance-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

interface JsonlShape {
  /** The uri a record belongs to (undefined: a record that is not about a document's content). */
  uri(r: Record<string, unknown>): string | undefined;
  /** What identifies the record among the live ones: two live records with one key are a duplicate. */
  key(r: Record<string, unknown>): string;
}

/**
 * A JSONL log read as a consumer compacts it: a tombstone withdraws everything before it for its
 * uri. Throws when a record is live twice (a document written again without its tombstone, a
 * checkpoint not cut back to), or when a uri has records of two documents.
 */
async function liveJsonl(file: string, shape: JsonlShape): Promise<Map<string, string>> {
  const live = new Map<string, Map<string, Record<string, unknown>>>();
  for (const line of (await readFile(file, "utf8")).split("\n").filter(Boolean)) {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (record.type === "tombstone") {
      live.delete(record.uri as string);
      continue;
    }
    const uri = shape.uri(record);
    if (uri === undefined) continue;
    if (!live.has(uri)) live.set(uri, new Map());
    const key = shape.key(record);
    if (live.get(uri)!.has(key)) throw new Error(`${file}: ${key} is live twice`);
    live.get(uri)!.set(key, record);
  }
  const out = new Map<string, string>();
  for (const [uri, records] of live) {
    const ids = new Set([...records.values()].map((r) => r.document_id as string));
    if (ids.size !== 1) throw new Error(`${uri} has ${ids.size} live versions in ${file}: ${[...ids].join(", ")}`);
    out.set(uri, [...ids][0]!);
  }
  return out;
}

describe("jsonl sink (page records)", () => {
  describeSinkConformance(
    {
      type: "jsonl",
      options: { records: "pages", path: "out/pages.jsonl", prune: true },
      live: (base) => liveJsonl(join(base, "out/pages.jsonl"), { uri: (r) => r.uri as string, key: (r) => `${r.type} ${r.uri} ${r.page ?? r.code}` }),
      deleteOutput: (base) => rm(join(base, "out/pages.jsonl")),
    },
    () => dir,
  );
});

describe("jsonl sink (chunk records)", () => {
  describeSinkConformance(
    {
      type: "jsonl",
      options: { records: "chunks", path: "out/chunks.jsonl", prune: true },
      async live(base) {
        const chunks = await liveJsonl(join(base, "out/chunks.jsonl"), { uri: (r) => (r.metadata as { source_uri: string }).source_uri, key: (r) => r.id as string });
        const documents = await liveJsonl(join(base, "out/chunks.documents.jsonl"), { uri: (r) => r.uri as string, key: (r) => r.uri as string });
        if (JSON.stringify([...chunks].sort()) !== JSON.stringify([...documents].sort())) throw new Error("the chunk file and its document records disagree");
        return chunks;
      },
      async deleteOutput(base) {
        await rm(join(base, "out/chunks.jsonl"));
        await rm(join(base, "out/chunks.documents.jsonl"));
      },
    },
    () => dir,
  );
});

describe("jsonl sink (chunk records, mode: snapshot, shape: langchain)", () => {
  describeSinkConformance(
    {
      type: "jsonl",
      options: { records: "chunks", path: "out/chunks.jsonl", mode: "snapshot", shape: "langchain", prune: true },
      // The live view is the snapshot itself, as a loader reads it: no tombstones, each chunk once.
      async live(base) {
        const uri = (r: Record<string, unknown>) => (r.metadata as { source_uri: string }).source_uri;
        const byId = (r: Record<string, unknown>) => ({ ...r, document_id: (r.metadata as { document_id: string }).document_id });
        const read = async (file: string) => (await readFile(file, "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
        const chunks = await read(join(base, "out/chunks.jsonl"));
        if (chunks.some((c) => c.type !== undefined || typeof c.pageContent !== "string")) throw new Error("the snapshot holds a line that is not a langchain chunk");
        const live = new Map<string, string>();
        const seen = new Set<string>();
        for (const c of chunks.map(byId)) {
          if (seen.has(c.id as string)) throw new Error(`${c.id} is in the snapshot twice`);
          seen.add(c.id as string);
          live.set(uri(c), c.document_id);
        }
        const documents = await liveJsonl(join(base, "out/chunks.documents.jsonl"), { uri: (r) => r.uri as string, key: (r) => r.uri as string });
        if (JSON.stringify([...live].sort()) !== JSON.stringify([...documents].sort())) throw new Error("the snapshot's chunks and its document records disagree");
        return live;
      },
      // The log is what a run resumes from: deleting it (with the snapshot) is deleting the output.
      async deleteOutput(base) {
        for (const f of ["chunks.jsonl", "chunks.documents.jsonl", "chunks.log.jsonl", "chunks.documents.log.jsonl"]) await rm(join(base, "out", f), { force: true });
      },
    },
    () => dir,
  );
});

describe("sqlite sink", () => {
  describeSinkConformance(
    {
      type: "sqlite",
      options: { path: "out/archive.sqlite", prune: true },
      async live(base) {
        const db = new Database(join(base, "out/archive.sqlite"), { readonly: true });
        try {
          const rows = db.prepare("SELECT uri, document_id FROM documents ORDER BY uri").all() as { uri: string; document_id: string }[];
          const chunkDocs = db.prepare("SELECT DISTINCT d.uri FROM chunks c JOIN documents d ON d.id = c.document_row").all() as { uri: string }[];
          if (chunkDocs.length !== rows.length) throw new Error("a document without its chunks, or chunks without their document");
          return new Map(rows.map((r) => [r.uri, r.document_id]));
        } finally {
          db.close();
        }
      },
      async deleteOutput(base) {
        for (const f of ["archive.sqlite", "archive.sqlite-wal", "archive.sqlite-shm"]) await rm(join(base, "out", f), { force: true });
      },
    },
    () => dir,
  );
});
