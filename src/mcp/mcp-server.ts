/**
 * `pagestream mcp`'s server: the archive to a model, read-only, through the official MCP SDK —
 * tools `search`, `read_document` and `list_documents`, and each document as a resource
 * (`pagestream://documents/{document_id}`). Every answer is bounded (answer-bounds.ts); arguments
 * the archive cannot answer are tool errors with a sentence (tool-results.ts). The same server
 * runs over stdio (`pagestream mcp`) and over streamable HTTP (`pagestream serve`, /mcp).
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PACKAGE_VERSION } from "../package-files.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import { DOCUMENT_URI_TEMPLATE, listDocumentResources, readDocumentResource } from "./document-resource.js";
import { LIST_DOCUMENTS_TOOL, listDocumentsTool } from "./list-documents-tool.js";
import { READ_DOCUMENT_TOOL, readDocumentTool } from "./read-document-tool.js";
import { SEARCH_TOOL, searchTool } from "./search-tool.js";
import { errorResult, toolResult, type ArchiveAccess, type ToolAnswer, type ToolDeclaration } from "./tool-results.js";

export interface McpServerOptions {
  /** The archive file as the user named it, for the instructions the client is given. */
  archiveName: string;
  /** Where a failure of the server's own is reported (stderr): never stdout, which is the protocol's. */
  logError(message: string): void;
}

/** Nothing a tool does changes the archive or reaches outside it. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(archive: ArchiveAccess, options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: "pagestream", version: PACKAGE_VERSION },
    {
      maxToolInputElements: ANSWER_BOUNDS.maxArgumentElements,
      instructions:
        `The text of the PDFs in the pagestream archive ${options.archiveName}, read-only. ` +
        "search finds passages (with document, pages and printed page labels, headings, snippet); read_document reads a document's pages " +
        "or the chunks around a hit; list_documents shows what the archive holds. Cite documents by path and page.",
    },
  );
  // Whatever a tool's logic throws becomes its error result.
  const answer =
    <Args>(tool: string, run: (archive: ArchiveAccess, args: Args) => ToolAnswer) =>
    (args: Args): CallToolResult => {
      try {
        return toolResult(run(archive, args));
      } catch (err) {
        return errorResult(err, tool, options.logError);
      }
    };
  server.registerTool(SEARCH_TOOL.name, toolConfig(SEARCH_TOOL), answer(SEARCH_TOOL.name, searchTool));
  server.registerTool(READ_DOCUMENT_TOOL.name, toolConfig(READ_DOCUMENT_TOOL), answer(READ_DOCUMENT_TOOL.name, readDocumentTool));
  server.registerTool(LIST_DOCUMENTS_TOOL.name, toolConfig(LIST_DOCUMENTS_TOOL), answer(LIST_DOCUMENTS_TOOL.name, listDocumentsTool));
  server.registerResource(
    "document",
    new ResourceTemplate(DOCUMENT_URI_TEMPLATE, { list: () => listDocumentResources(archive) }),
    {
      title: "A document's text",
      description: `A document of the archive: its text from the first page (at most ${ANSWER_BOUNDS.maxTextChars.toLocaleString("en-US")} characters; read_document reads on).`,
    },
    (uri, variables) => readDocumentResource(archive, uri, variables.document_id ?? ""),
  );
  return server;
}

/** A tool's declaration as McpServer.registerTool takes it, read-only. */
function toolConfig<Shape extends ZodRawShapeCompat>(tool: ToolDeclaration<Shape>) {
  return { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: READ_ONLY };
}
