/**
 * What every tool stands on and how its answer goes back. A tool's logic is a function of the
 * archive and its arguments returning a {@link ToolAnswer}: the structured result (snake_case
 * keys, as `pagestream search --json` prints them) and the same answer as text for a client
 * that shows text only. Errors become tool errors (`isError`) with a sentence, never a crash of
 * the server or a protocol error the model cannot read.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ShapeOutput, ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ArchiveReader } from "../serve/archive-reader.js";
import { QueryError } from "../sinks/sqlite/search.js";
import type { ArchiveLookups } from "./archive-lookups.js";
import { ArgumentError } from "./argument-error.js";

/** The archive as the tools read it. */
export interface ArchiveAccess {
  reader: ArchiveReader;
  lookups: ArchiveLookups;
}

/** What a tool is, as its file declares it: the name a client calls, what it is for, its arguments. */
export interface ToolDeclaration<Shape extends ZodRawShapeCompat> {
  name: string;
  title: string;
  /** What the tool does and what it returns, for the model choosing it: its bounds included. */
  description: string;
  /** The arguments, each with a description (the JSON Schema the client is shown). */
  inputSchema: Shape;
}

/** A tool's arguments as its input shape validates them (an argument not given is undefined). */
export type ToolArguments<Shape extends ZodRawShapeCompat> = ShapeOutput<Shape>;

export interface ToolAnswer {
  structured: Record<string, unknown>;
  text: string;
}

export function toolResult(answer: ToolAnswer): CallToolResult {
  return { content: [{ type: "text", text: answer.text }], structuredContent: answer.structured };
}

/**
 * A tool's failure as its result: the sentence of an ArgumentError or a QueryError (with its
 * code in `structuredContent.error`), or, for anything else, a sentence that says the server
 * failed, its details given to `logError` (stderr) and not to the client.
 */
export function errorResult(err: unknown, tool: string, logError: (message: string) => void): CallToolResult {
  const known = err instanceof ArgumentError || err instanceof QueryError;
  if (!known) logError(`${tool}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const code = known ? err.code : "server_error";
  const message = known ? err.message : `${tool} failed on these arguments; the server's log says why`;
  return { content: [{ type: "text", text: message }], structuredContent: { error: { code, message } }, isError: true };
}
