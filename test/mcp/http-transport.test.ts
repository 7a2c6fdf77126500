/**
 * MCP under `pagestream serve`, at /mcp over the streamable HTTP transport: the SDK's Client
 * with the server's token searches and reads as over stdio, and the access rules of every other
 * route hold for /mcp — no token is a 401, another Host a 403, a cross-site POST a 403.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveFolder, serve, type Served } from "../serve/serve-fixture.js";

const TOKEN = "mcp-test-token";
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let dir: string;
let server: Served;
const mcpUrl = () => new URL("/mcp", server.url);

/** A raw POST to /mcp, for what fetch will not send (another Host header). */
function rawPost(headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const url = mcpUrl();
  return new Promise((done, fail) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (t) => (text += t));
      res.on("end", () => done({ status: res.statusCode!, body: text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}

beforeAll(async () => {
  dir = await archiveFolder();
  server = await serve(dir, ["--token", TOKEN]);
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

describe("pagestream serve: /mcp", () => {
  it("serves the MCP tools to a client that sends the token", async () => {
    const client = new Client({ name: "pagestream-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["list_documents", "read_document", "search"]);
      const search = (await client.callTool({ name: "search", arguments: { query: '"written notice"', limit: 1 } })) as CallToolResult;
      const hit = (search.structuredContent as { hits: { path: string; match_pages: number[]; chunk_id: string }[] }).hits[0]!;
      expect([hit.path, hit.match_pages]).toEqual(["service-agreement.pdf", [2, 2]]);
      const read = (await client.callTool({ name: "read_document", arguments: { chunk_id: hit.chunk_id, around: 0 } })) as CallToolResult;
      expect((read.structuredContent as { chunks: { text: string }[] }).chunks[0]!.text.toLowerCase()).toContain("written notice");
      const bad = (await client.callTool({ name: "read_document", arguments: { document: "service-agreement.pdf", pages: { from: 40 } } })) as CallToolResult;
      expect([bad.isError, (bad.structuredContent as { error: { code: string } }).error.code]).toEqual([true, "no_page"]);
    } finally {
      await client.close();
    }
  });

  it("refuses a client without the token (401), and says why", async () => {
    const response = await fetch(mcpUrl(), { method: "POST", headers: MCP_HEADERS, body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("token_required");
    const client = new Client({ name: "pagestream-test", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl()))).rejects.toThrow();
  });

  it("refuses another Host (DNS rebinding) and a cross-site POST, token or not (403)", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await rawPost({ ...MCP_HEADERS, ...auth, host: "attacker.example:80" }, INITIALIZE)).status).toBe(403);
    const crossSite = await fetch(mcpUrl(), { method: "POST", headers: { ...MCP_HEADERS, ...auth, origin: "http://attacker.example" }, body: INITIALIZE });
    expect(crossSite.status).toBe(403);
  });

  it("answers what is not an MCP POST with a JSON-RPC error: no sessions, not JSON, too large", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const get = await fetch(mcpUrl(), { headers: { ...auth, accept: "text/event-stream" } });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await get.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
    const notJson = await fetch(mcpUrl(), { method: "POST", headers: { ...MCP_HEADERS, ...auth }, body: "{not json" });
    expect([notJson.status, ((await notJson.json()) as { error: { code: number } }).error.code]).toEqual([400, -32700]);
    const large = await fetch(mcpUrl(), { method: "POST", headers: { ...MCP_HEADERS, ...auth }, body: JSON.stringify({ padding: "x".repeat(300 * 1024) }) });
    expect(large.status).toBe(413);
  });
});
