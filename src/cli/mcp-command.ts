/**
 * `pagestream mcp`: the archive as an MCP server over stdio (src/mcp/), for a desktop client or
 * an agent that starts it as a child process. Serves until the client closes stdin, then exits 0.
 * stdout carries the protocol and nothing else: every message of pagestream's own goes to stderr.
 * The archive is chosen as every command that reads one chooses it (archive-choice.ts); one that
 * cannot be opened is said on stderr, exit 2.
 */
import { chooseArchive } from "./archive-choice.js";
import type { ArchiveReader } from "../serve/archive-reader.js";
import { EXIT } from "../exit-codes.js";

export interface McpFlags {
  db?: string;
  pipeline?: string;
}

/**
 * Largest JSON-RPC message the server reads from stdin: a tool call is a few short arguments,
 * and a client that sends more than this is not speaking MCP to it.
 */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function mcpCommand(flags: McpFlags): Promise<number> {
  const say = (message: string) => process.stderr.write(`pagestream: ${message}\n`);
  const chosen = await chooseArchive(flags);
  if (!chosen.ok) {
    process.stderr.write(chosen.text);
    return EXIT.usage;
  }
  const { file, shown } = chosen.choice;
  const { ArchiveReader } = await import("../serve/archive-reader.js");
  const { ArchiveLookups } = await import("../mcp/archive-lookups.js");
  let reader: ArchiveReader;
  try {
    reader = ArchiveReader.open(file, shown);
  } catch (err) {
    say((err as Error).message);
    return EXIT.usage;
  }
  const lookups = new ArchiveLookups(reader.connection);
  const { createMcpServer } = await import("../mcp/mcp-server.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = createMcpServer({ reader, lookups }, { archiveName: shown, logError: say });
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  transport.onerror = (err) => say(`MCP: ${err.message}`);

  // The client closing stdin is the end of the session; a client gone while an answer is being
  // written (EPIPE on stdout) is too.
  const ended = new Promise<void>((done) => {
    process.stdin.once("end", done);
    process.stdin.once("close", done);
    process.stdout.once("error", done);
    transport.onclose = done;
  });
  await server.connect(transport);
  say(`serving ${shown} over MCP (stdio) until stdin closes`);
  await ended;
  // Requests read just before stdin closed are answered before the server closes.
  await new Promise((done) => setImmediate(done));
  await server.close();
  reader.close();
  return EXIT.ok;
}
