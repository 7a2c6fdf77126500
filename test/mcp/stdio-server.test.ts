/**
 * `pagestream mcp` as a desktop client runs it: the SDK's Client over StdioClientTransport,
 * against the archive the default pipeline writes from the samples and a long ledger. Lists the
 * tools, searches, reads pages and a chunk's neighbourhood as Markdown and text, lists
 * documents, reads a resource, keeps every answer within its bound, and answers bad arguments
 * with a tool error that says what is wrong.
 */
import { spawn, spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveFolder, CLI } from "../serve/serve-fixture.js";
import { errorCode, ledgerPdf, mcpSession, textOf, type McpSession } from "./mcp-fixture.js";

interface Hit {
  document_id: string;
  path: string;
  title: string;
  chunk_id: string;
  chunk_index: number;
  match_pages: [number, number];
  match_page_labels: string[];
  headings: string[];
  snippet: string;
  highlights: [number, number][];
  boxes: { page: number }[];
}
interface PageText {
  number: number;
  label: string | null;
  text: string;
}
interface PageReading {
  document_id: string;
  format: string;
  pages: PageText[];
  next?: { pages: { from: number; to: number }; offset?: number };
  notes?: string[];
}

let dir: string;
let mcp: McpSession;
const structured = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
  const result = await mcp.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as T;
};

beforeAll(async () => {
  dir = await archiveFolder({ "ledger.pdf": await ledgerPdf() });
  mcp = await mcpSession(dir, ["--db", "out/archive.sqlite"]);
});
afterAll(async () => {
  await mcp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("pagestream mcp over stdio", () => {
  it("offers three read-only tools and says on stderr which archive it serves", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["list_documents", "read_document", "search"]);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === "search")!.inputSchema.required).toEqual(["query"]);
    expect(mcp.stderr()).toContain("serving out/archive.sqlite over MCP");
  });

  it("finds a phrase, with its document, pages, printed labels, headings, snippet, highlights and boxes", async () => {
    const { hits } = await structured<{ hits: Hit[]; more: boolean }>("search", { query: '"written notice"' });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect([hit.path, hit.title, hit.match_pages, hit.match_page_labels]).toEqual(["service-agreement.pdf", "Service Agreement", [2, 2], ["2"]]);
      expect(hit.document_id).toMatch(/^[0-9a-f]{64}$/);
      expect(hit.headings[0]).toBe("SERVICE AGREEMENT");
      expect(hit.highlights.map(([s, e]) => hit.snippet.slice(s, e).toLowerCase())).toContain("written notice");
      expect(hit.boxes.length).toBeGreaterThan(0);
      expect(hit.boxes.every((b) => b.page === 2)).toBe(true);
    }
    const result = await mcp.call("search", { query: '"written notice"', limit: 1 });
    expect(textOf(result)).toMatch(/^Hits 1–1 for "\\"written notice\\""/);
    expect(textOf(result)).toMatch(/service-agreement\.pdf, p\. 2 — Service Agreement/);
    expect(textOf(result).toLowerCase()).toContain("[written notice]");
  });

  it("searches one document named by its path or by 8 hex digits of its id, and pages on with offset", async () => {
    const all = await structured<{ hits: Hit[] }>("search", { query: "harbour", limit: 50 });
    const report = all.hits.find((h) => h.path === "quarterly-report.pdf")!;
    for (const document of ["quarterly-report.pdf", report.document_id.slice(0, 8)]) {
      const { hits } = await structured<{ hits: Hit[] }>("search", { query: "harbour", document, limit: 50 });
      expect(hits.length).toBeGreaterThan(0);
      expect(new Set(hits.map((h) => h.path))).toEqual(new Set(["quarterly-report.pdf"]));
    }
    const first = await structured<{ hits: Hit[]; more: boolean; next_offset: number }>("search", { query: "harbour", limit: 2 });
    expect([first.hits.length, first.more, first.next_offset]).toEqual([2, true, 2]);
    const second = await structured<{ hits: Hit[] }>("search", { query: "harbour", limit: 2, offset: 2 });
    expect(second.hits.map((h) => h.chunk_id)).toEqual(all.hits.slice(2, 4).map((h) => h.chunk_id));
    const folder = await structured<{ hits: Hit[] }>("search", { query: "harbour", path_prefix: "quarterly", limit: 50 });
    expect(new Set(folder.hits.map((h) => h.path))).toEqual(new Set(["quarterly-report.pdf"]));
  });

  it("reads a document's pages as stored (Markdown) with their numbers and printed labels, and as text", async () => {
    const markdown = await structured<PageReading>("read_document", { document: "quarterly-report.pdf", pages: { from: 2, to: 3 } });
    expect(markdown.format).toBe("markdown");
    expect(markdown.pages.map((p) => [p.number, p.label])).toEqual([
      [2, "2"],
      [3, "3"],
    ]);
    expect(markdown.pages[0]!.text).toMatch(/^### 1\. Traffic and Cargo\n\nVessel arrivals rose to 1,284/);
    expect(markdown.next).toBeUndefined();
    const text = await structured<PageReading>("read_document", { document: "quarterly-report.pdf", pages: { from: 2, to: 2 }, format: "text" });
    expect(text.format).toBe("text");
    expect(text.pages[0]!.text).toMatch(/^1\. Traffic and Cargo\n\nVessel arrivals rose to 1,284/);
    const result = await mcp.call("read_document", { document: "quarterly-report.pdf", pages: { from: 2, to: 2 }, format: "text" });
    expect(textOf(result)).toContain("--- Page 2 ---\n\n1. Traffic and Cargo");
  });

  it("reads the chunks around a search hit's chunk_id, with their pages and headings", async () => {
    const { hits } = await structured<{ hits: Hit[] }>("search", { query: '"written notice"', limit: 1 });
    const hit = hits[0]!;
    const reading = await structured<{ document_id: string; chunk_index: number; chunks: { chunk_id: string; chunk_index: number; page_start: number; headings: string[]; text: string }[] }>("read_document", { chunk_id: hit.chunk_id, around: 1 });
    expect(reading.document_id).toBe(hit.document_id);
    expect(reading.chunk_index).toBe(hit.chunk_index);
    expect(reading.chunks.map((c) => c.chunk_index)).toEqual([hit.chunk_index - 1, hit.chunk_index, hit.chunk_index + 1].filter((i) => i >= 0 && i <= 2));
    const own = reading.chunks.find((c) => c.chunk_id === hit.chunk_id)!;
    expect(own.headings).toEqual(hit.headings);
    expect(own.text.toLowerCase()).toContain("written notice");
    const alone = await structured<{ chunks: unknown[] }>("read_document", { chunk_id: hit.chunk_id, around: 0, format: "text" });
    expect(alone.chunks).toHaveLength(1);
  });

  it("lists documents newest first, a page at a time, with the total", async () => {
    const first = await structured<{ total: number; documents: { document_id: string; path: string; pages: number }[]; next_offset?: number }>("list_documents", { limit: 2 });
    expect([first.total, first.documents.length, first.next_offset]).toEqual([4, 2, 2]);
    const rest = await structured<{ documents: { path: string }[]; next_offset?: number }>("list_documents", { offset: 2 });
    expect(rest.next_offset).toBeUndefined();
    expect(new Set([...first.documents, ...rest.documents].map((d) => d.path))).toEqual(new Set(["ledger.pdf", "meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"]));
  });

  it("offers each document as a resource and reads one", async () => {
    const { resources } = await mcp.client.listResources();
    const minutes = resources.find((r) => r.name === "meeting-minutes.pdf")!;
    expect(minutes.uri).toMatch(/^pagestream:\/\/documents\/[0-9a-f]{64}$/);
    const { contents } = await mcp.client.readResource({ uri: minutes.uri });
    expect(contents[0]).toMatchObject({ uri: minutes.uri, mimeType: "text/markdown" });
    expect((contents[0] as { text: string }).text).toMatch(/^<!-- page 1 -->\n\n# Operations Committee\n/);
    await expect(mcp.client.readResource({ uri: "pagestream://documents/0000" })).rejects.toThrow(/holds no document with that id/);
  });

  it("cuts a page longer than an answer may be, and reads on from where next says", async () => {
    const first = await mcp.call("read_document", { document: "ledger.pdf" });
    const reading = first.structuredContent as unknown as PageReading;
    expect(reading.pages.map((p) => p.number)).toEqual([1]);
    expect(reading.pages[0]!.text.length).toBe(20_000);
    expect(reading.next).toEqual({ pages: { from: 1, to: 9 }, offset: 20_000 });
    expect(reading.notes![0]).toMatch(/^Cut at 20,000 characters: read on with read_document pages \{ from: 1, to: 9 \} and offset 20000\.$/);
    expect(textOf(first).length).toBeLessThan(20_500);

    const second = await structured<PageReading>("read_document", { document: "ledger.pdf", ...reading.next });
    expect(second.pages[0]!.number).toBe(1);
    expect(second.pages[0]!.text).toMatch(/^[\s\S]*Entry 150: /);
    const read = second.pages.reduce((n, p) => n + p.text.length, 0);
    expect(read).toBeLessThanOrEqual(20_000);
    expect(second.next).toEqual({ pages: { from: second.pages[second.pages.length - 1]!.number + 1, to: 9 } });
  });

  it("answers bad arguments with a tool error that names the problem", async () => {
    const { hits } = await structured<{ hits: Hit[] }>("search", { query: "harbour", limit: 1 });
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["search", { query: "" }, "empty", /nothing to search for/],
      ["search", { query: "ab*" }, "short_prefix", /too short a prefix/],
      ["search", { query: "harbour AND" }, "dangling_operator", /AND needs a word/],
      ["search", { query: "NEAR(harbour", fts: true }, "fts_syntax", /FTS5 cannot read this query/],
      ["search", { query: "harbour", substring: true }, "no_trigram_index", /trigram/],
      ["search", { query: "harbour", substring: true, fts: true }, "conflicting_arguments", /two different searches/],
      ["search", { query: "harbour", document: "deadbeef" }, "no_document", /holds no document/],
      ["search", { query: "harbour", document: "abc" }, "no_document", /too short for a document id/],
      ["search", { query: "harbour", limit: 51 }, "input", /limit/],
      ["search", { limit: 5 }, "input", /query/],
      ["read_document", { document: "0123456789abcdef" }, "no_document", /holds no document/],
      ["read_document", { document: "quarterly-report.pdf", pages: { from: 9 } }, "no_page", /has 4 pages: there is no page 9/],
      ["read_document", { document: "quarterly-report.pdf", pages: { from: 3, to: 2 } }, "no_page", /before pages\.from/],
      ["read_document", { document: "quarterly-report.pdf", pages: { from: 0 } }, "input", /from/],
      ["read_document", { chunk_id: "not-a-chunk" }, "no_chunk", /no chunk with that id/],
      ["read_document", { chunk_id: hits[0]!.chunk_id, document: "meeting-minutes.pdf" }, "conflicting_arguments", /is a chunk of document/],
      ["read_document", { chunk_id: hits[0]!.chunk_id, pages: { from: 1 } }, "conflicting_arguments", /either chunk_id/],
      ["read_document", {}, "conflicting_arguments", /say what to read/],
      ["read_document", { document: "ledger.pdf", format: "html" }, "input", /format/],
      ["list_documents", { limit: 101 }, "input", /limit/],
    ];
    for (const [tool, args, code, sentence] of cases) {
      const result = await mcp.call(tool, args);
      expect([tool, args, errorCode(result)]).toEqual([tool, args, code]);
      expect(textOf(result)).toMatch(sentence);
    }
    // The server is still there.
    expect((await structured<{ total: number }>("list_documents", {})).total).toBe(4);
  });
});

describe("pagestream mcp's process", () => {
  it("writes nothing but protocol to stdout, and exits 0 when stdin closes", async () => {
    const child = spawn(process.execPath, [CLI, "mcp", "--db", "out/archive.sqlite"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_documents", arguments: { limit: 1 } } };
    child.stdin.end([initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, call].map((m) => JSON.stringify(m) + "\n").join(""));
    expect(await exited).toBe(0);
    const messages = stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { id: number; result: { structuredContent?: { total: number } } });
    expect(messages.map((m) => m.id)).toEqual([1, 2]);
    expect(messages[1]!.result.structuredContent!.total).toBe(4);
  });

  it("exits 2 with a sentence on stderr when the archive cannot be opened", async () => {
    const missing = spawnSync(process.execPath, [CLI, "mcp", "--db", "nowhere.sqlite"], { cwd: dir, encoding: "utf8", input: "" });
    expect([missing.status, missing.stdout]).toEqual([2, ""]);
    expect(missing.stderr).toMatch(/no archive at nowhere\.sqlite/);
    await writeFile(join(dir, "not-an-archive.sqlite"), "this is not SQLite");
    const damaged = spawnSync(process.execPath, [CLI, "mcp", "--db", "not-an-archive.sqlite"], { cwd: dir, encoding: "utf8", input: "" });
    expect([damaged.status, damaged.stdout]).toEqual([2, ""]);
    expect(damaged.stderr).toMatch(/not-an-archive\.sqlite: /);
  });
});
