/**
 * The README's MCP configuration, as a desktop client uses it: the JSON snippet read from the
 * README, its placeholder paths replaced by this checkout's and an archive's, started by the
 * SDK's stdio transport from a folder of the client's own (not the archive's).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { archiveFolder } from "../serve/serve-fixture.js";

let dir: string;
beforeAll(async () => {
  dir = await archiveFolder();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it("works as docs/archive-and-search.md configures it", async () => {
  const readme = await readFile("docs/archive-and-search.md", "utf8");
  const snippet = /```json\n(\{\s*"mcpServers"[\s\S]*?)```/.exec(readme)?.[1];
  expect(snippet, "the mcpServers snippet of docs/archive-and-search.md").toBeDefined();
  const config = JSON.parse(snippet!.replaceAll("/path/to/pagestream", resolve(".")).replaceAll("/path/to/out/archive.sqlite", join(dir, "out/archive.sqlite"))) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const server = config.mcpServers.pagestream!;
  // "node" as the client finds it on its PATH: this test's own Node.
  const command = server.command === "node" ? process.execPath : server.command;
  const transport = new StdioClientTransport({ command, args: server.args, cwd: tmpdir(), stderr: "pipe" });
  const client = new Client({ name: "desktop-client", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["list_documents", "read_document", "search"]);
    const found = (await client.callTool({ name: "search", arguments: { query: "harbour" } })) as { structuredContent: { hits: { path: string }[] } };
    expect(found.structuredContent.hits.length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
});
