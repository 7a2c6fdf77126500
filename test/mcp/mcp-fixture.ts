/**
 * What the MCP tests stand on: the serve tests' archive folder (the default pipeline over the
 * samples) with a ledger long enough to meet the answers' size bound, and an MCP client of the
 * official SDK talking to `pagestream mcp` as a desktop client does, over its stdin and stdout.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import PDFDocument from "pdfkit";
import { CLI } from "../serve/serve-fixture.js";

/**
 * A ledger whose first page holds ~24,000 characters (150 entries in 4-point type), more than
 * one answer may carry, and eight ordinary pages of ~3,000 characters after it.
 */
export function ledgerPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: "LETTER", margin: 36, compress: false, info: { Title: "Berth ledger", CreationDate: new Date(0), ModDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on("end", () => ok(Buffer.concat(chunks)));
    doc.on("error", fail);
  });
  doc.font("Helvetica").fontSize(4);
  for (let i = 1; i <= 150; i++) doc.text(`Entry ${i}: the ledger records berth ${i} let to vessel ${i * 7} for ${(i % 9) + 1} nights at the quay, dues paid in full, pilotage waived by the harbour master.`);
  for (let page = 2; page <= 9; page++) {
    doc.addPage().fontSize(10);
    for (let i = 1; i <= 20; i++) doc.text(`Page ${page}, note ${i}: the tide gauge at the east wall read ${page + i} metres at noon and the lock keeper logged the sluice opened twice for the fishing fleet.`, { paragraphGap: 4 });
  }
  doc.end();
  return done;
}

export interface McpSession {
  client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `pagestream mcp …` started in `cwd` by the SDK's stdio transport, and a client connected to it. */
export async function mcpSession(cwd: string, args: string[]): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "pagestream-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** A tool result's text. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** A tool error's code (from structuredContent.error), or "input" for arguments the SDK refused against the tool's schema. */
export function errorCode(result: CallToolResult): string | undefined {
  if (!result.isError) return undefined;
  const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
  return code ?? (/Input validation error/.test(textOf(result)) ? "input" : "unknown");
}
