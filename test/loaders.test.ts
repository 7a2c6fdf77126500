/**
 * The chunk file loads as it is with the libraries RAG users have (issue 14 §3): each loader's
 * own constructor or validator, from its npm package, on the output of a real run — no server.
 * - LangChain.js: `new Document(line)` (@langchain/core) with shape: langchain;
 * - LlamaIndex.TS: `new Document(line)` and `new TextNode(line)` (@llamaindex/core, the package
 *   the llamaindex package re-exports them from; llamaindex itself also pulls tree-sitter's native
 *   build, which these tests do not need);
 * - Chroma: the JS client's checks on `collection.add` (ids unique, metadata values strings,
 *   numbers, booleans or non-empty lists), which run before it sends anything.
 */
import { Document as LangChainDocument } from "@langchain/core/documents";
import { Document as LlamaIndexDocument, MetadataMode, TextNode } from "@llamaindex/core/schema";
import { ChromaClient, ChromaConnectionError, ChromaValueError } from "chromadb";
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
let dir: string;
const lines = async (file: string) => (await readFile(join(dir, file), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-loaders-"));
  await mkdir(join(dir, "in"));
  for (const f of ["meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"]) await copyFile(join("fixtures/samples", f), join(dir, "in", f));
  await copyFile("fixtures/samples/meeting-minutes.pdf", join(dir, "in/minutes-copy.pdf"));
  await writeFile(
    join(dir, "pipeline.yaml"),
    `source: { type: folder, path: in, stable_seconds: 0 }
stages: [{ type: extract }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, max_tokens: 128, overlap_tokens: 16, min_tokens: 16 }]
sinks:
  - { type: jsonl, path: out/flat.jsonl, mode: snapshot }
  - { type: jsonl, path: out/langchain.jsonl, mode: snapshot, shape: langchain }
  - { type: jsonl, path: out/llamaindex.jsonl, mode: snapshot, shape: llamaindex }
`,
  );
  const r = spawnSync(process.execPath, [CLI, "run", "pipeline.yaml", "--progress", "never", "--log-level", "warn"], { cwd: dir, encoding: "utf8" });
  expect([r.status, r.stderr]).toEqual([0, ""]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("LangChain.js", () => {
  it("takes each line of shape: langchain as a Document, with its text, metadata and stable id", async () => {
    const flat = await lines("out/flat.jsonl");
    const documents = (await lines("out/langchain.jsonl")).map((line) => new LangChainDocument(line as never));
    expect(documents.map((d) => [d.id, d.pageContent, d.metadata.source_uri, d.metadata.chunk_index])).toEqual(flat.map((c) => [c.id, c.text, c.metadata.source_uri, c.chunk_index]));
    expect(documents.every((d) => d.pageContent.length > 0)).toBe(true);
  });

  it("gets no text from a flat line, which is why the shape exists", async () => {
    const [flat] = await lines("out/flat.jsonl");
    expect(new LangChainDocument(flat as never).pageContent).toBe("");
  });
});

describe("LlamaIndex.TS", () => {
  it("takes each line of shape: llamaindex as a Document and keeps the stable id", async () => {
    const flat = await lines("out/flat.jsonl");
    const documents = (await lines("out/llamaindex.jsonl")).map((line) => new LlamaIndexDocument(line as never));
    expect(documents.map((d) => [d.id_, d.text, d.metadata.document_id])).toEqual(flat.map((c) => [c.id, c.text, c.document_id]));
    // As nodes (the chunks are already sized), the same.
    const nodes = (await lines("out/llamaindex.jsonl")).map((line) => new TextNode(line as never));
    expect(nodes.map((n) => [n.id_, n.text])).toEqual(flat.map((c) => [c.id, c.text]));
    // The boxes travel in the metadata, but stay out of what is embedded and shown to the LLM.
    expect(typeof documents[0]!.metadata.boxes).toBe("string");
    for (const mode of [MetadataMode.EMBED, MetadataMode.LLM]) expect(documents[0]!.getContent(mode)).not.toContain('"x0"');
    expect(documents[0]!.getContent(MetadataMode.ALL)).toContain('"x0"');
    // A flat line has no id_: LlamaIndex makes up a random one, and a re-load would duplicate every chunk.
    const [first] = flat;
    expect(new LlamaIndexDocument(first as never).id_).not.toBe(first!.id);
  });
});

describe("Chroma", () => {
  /** A loopback port nothing listens on: the client's checks run, then its request is refused. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r));
    return port;
  }

  /** `collection.add` of these records; the client's own checks, then the network. */
  async function add(records: Record<string, any>[]): Promise<unknown> {
    const client = new ChromaClient({ host: "127.0.0.1", port: await closedPort(), ssl: false, tenant: "default_tenant", database: "default_database" });
    // The server's answer to the client's preflight (its batch limit), which it asks before checking a batch.
    (client as unknown as { preflightChecks: object }).preflightChecks = { max_batch_size: 5461, supports_base64_encoding: false };
    const collection = client.collection("00000000-0000-4000-8000-000000000000");
    return collection
      .add({
        ids: records.map((r) => r.id),
        documents: records.map((r) => r.text),
        metadatas: records.map((r) => r.metadata),
        embeddings: records.map((_, i) => [i, 1, 0]),
      })
      .then(
        () => "added",
        (err: unknown) => err,
      );
  }

  it("accepts the whole chunk file in one batch: unique ids, no empty list, no null (it then tries to send it)", async () => {
    const flat = await lines("out/flat.jsonl");
    expect(flat.length).toBeGreaterThan(4);
    expect(await add(flat)).toBeInstanceOf(ChromaConnectionError);
  });

  it("refuses what pagestream wrote before: an empty list in the metadata, and ids repeated by a copied file", async () => {
    const flat = await lines("out/flat.jsonl");
    const emptyList = await add([{ ...flat[0]!, metadata: { ...flat[0]!.metadata, flags: [] } }]);
    expect(emptyList).toBeInstanceOf(ChromaValueError);
    expect(String(emptyList)).toMatch(/non-empty/);
    const repeated = await add([flat[0]!, flat[0]!]);
    expect(repeated).toBeInstanceOf(ChromaValueError);
    expect(String(repeated)).toMatch(/Expected IDs to be unique/);
  });
});
