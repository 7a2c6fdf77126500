/**
 * POST /mcp          the archive over MCP's streamable HTTP transport: the same server as
 *                    `pagestream mcp` (src/mcp/), for a client that reaches `pagestream serve`
 * GET, DELETE /mcp   405: the server keeps no sessions, so there is no stream to open or end
 *
 * Stateless: every POST gets a server and a transport of its own, answered as one JSON body (no
 * tool runs long enough to need an event stream). The access checks every request passes first
 * (Host, token, the Origin of a POST: server.ts) cover /mcp as they cover the page's API.
 * Errors before the MCP server sees the request (a body too large, not JSON) are JSON-RPC
 * errors, as an MCP client expects them.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import type { ArchiveLookups } from "../../mcp/archive-lookups.js";
import type { ServerOptions } from "../server.js";

/** Largest JSON-RPC request body: a tool call is a few short arguments (a query is at most 1,000 characters). */
const MAX_BODY_BYTES = 256 * 1024;

/** JSON-RPC's error codes for a body that is not JSON, a request that is not one, and a server failure. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

export function mcpRoutes(options: ServerOptions) {
  // Made at the first MCP request, so that a server never asked over MCP never loads the MCP code.
  let lookups: ArchiveLookups | undefined;
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: MAX_BODY_BYTES }, app.getDefaultJsonParser("error", "error"));

    app.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return jsonRpcError(reply, 413, INVALID_REQUEST, `the request is larger than ${MAX_BODY_BYTES / 1024} KiB`);
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return jsonRpcError(reply, 415, INVALID_REQUEST, "send JSON-RPC messages as application/json");
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return jsonRpcError(reply, 400, PARSE_ERROR, `the body is not JSON: ${error.message}`);
      options.logError(`POST /mcp: ${error.stack ?? error.message}`);
      return jsonRpcError(reply, 500, INTERNAL_ERROR, "the server failed on this request; its log says why");
    });

    app.post("/mcp", { bodyLimit: MAX_BODY_BYTES }, async (request, reply) => {
      const [{ ArchiveLookups }, { createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
        import("../../mcp/archive-lookups.js"),
        import("../../mcp/mcp-server.js"),
        import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
      ]);
      lookups ??= new ArchiveLookups(options.archive.connection);
      const server = createMcpServer({ reader: options.archive, lookups }, { archiveName: options.archiveName, logError: options.logError });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The transport writes the answer itself; the headers set so far (the security headers) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        options.logError(`POST /mcp: ${(err as Error).stack ?? String(err)}`);
        if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "application/json" });
        reply.raw.end(JSON.stringify(jsonRpcErrorBody(INTERNAL_ERROR, "the server failed on this request; its log says why")));
      }
    });

    const noSessions = async (_request: unknown, reply: FastifyReply) =>
      jsonRpcError(reply.header("allow", "POST"), 405, INVALID_REQUEST, "this server keeps no MCP sessions: send each request as a POST");
    app.get("/mcp", noSessions);
    app.delete("/mcp", noSessions);
  };
}

function jsonRpcErrorBody(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header("cache-control", "no-store").send(jsonRpcErrorBody(code, message));
}
