/**
 * `pagestream serve`'s HTTP server (fastify): one page and a small JSON API over the archive.
 *
 * Every request passes the access checks (Host, token, the origin of a POST; see
 * access-control.ts) before any route, and every answer carries the security headers (see
 * security-headers.ts). Errors are JSON with a code and a sentence — a bad query or an
 * unreadable token cookie is a 400, an unknown document or path a 404, a file over the upload
 * limit a 413, an upload while the server takes as many as it will a 503 — and a 500 is logged
 * and answered without the details.
 *
 * Timeouts, so that a client cannot hold a connection for ever: a request must arrive whole
 * (headers and body) within the request timeout (408 and closed past it: a body trickled a byte
 * at a time is cut off), and a connection on which nothing moves either way for longer than an
 * upload can take to be answered is closed.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { wireKeys } from "../core/wire-keys.js";
import type { ApiError } from "./api-types.js";
import { allowedHosts, isLoopback, MalformedCookie, presentedToken, tokenCookie, tokenCookieName, tokenMatches, type TokenRule } from "./access-control.js";
import type { ArchiveReader } from "./archive-reader.js";
import type { Assets } from "./assets.js";
import type { SourceAccess } from "./originals.js";
import { documentRoutes } from "./routes/document-routes.js";
import { mcpRoutes } from "./routes/mcp-routes.js";
import { pageRoutes } from "./routes/page-routes.js";
import { searchRoutes } from "./routes/search-routes.js";
import { uploadRoutes } from "./routes/upload-routes.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import type { UploadExtraction } from "./upload-extraction.js";
import type { UploadSaver } from "./upload-saving.js";
import { UPLOADS_AT_ONCE } from "./upload-slots.js";

export interface ServerOptions {
  /** The archive file as the user named it, for the page. */
  archiveName: string;
  archive: ArchiveReader;
  assets: Assets;
  access: SourceAccess | undefined;
  extraction: UploadExtraction;
  saver: UploadSaver | undefined;
  /** Largest upload, in bytes. */
  maxUploadBytes: number;
  /** Largest original the server reads (the pipeline's max_file_bytes). */
  maxFileBytes: number;
  host: string;
  /** The port the server listens on (for the Host check; 0 until it listens). */
  port: () => number;
  /** The server's token: given, or made at start (see access-control.ts). */
  token: string;
  /** Which requests need it. */
  tokenRule: TokenRule;
  /** Longest a request may take to arrive, headers and body. */
  requestTimeoutSeconds: number;
  /** Where a server error is reported. */
  logError(message: string): void;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route adds a file to the source folder: it needs the token even on loopback. */
    adds?: boolean;
  }
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).header("cache-control", "no-store").send({ error: { code, message } } satisfies ApiError);
}

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const requestTimeoutMs = options.requestTimeoutSeconds * 1000;
  // The longest a connection may be silent: while an upload waits for the extraction worker to
  // finish the other one and then its own (each up to the pipeline's timeout_seconds), no byte
  // moves; a minute more for starting the worker and sending the answer.
  const idleMs = Math.max(requestTimeoutMs, (UPLOADS_AT_ONCE * options.extraction.limits.timeout_seconds + 60) * 1000);
  const app = Fastify({
    logger: false,
    // The upload routes set their own limit; everything else has no body worth more than this.
    bodyLimit: 64 * 1024,
    // A path with a trailing slash or repeated slashes is the same route, not a surprise 404.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    // Behind no proxy: the socket's address is the client's.
    trustProxy: false,
    // Stopping ends every connection, not only idle ones: a connection whose request was
    // refused before its body was read is not idle, and would hold the stop for the
    // keep-alive timeout (72 s).
    forceCloseConnections: true,
    requestTimeout: requestTimeoutMs,
    connectionTimeout: idleMs,
    http: {
      // Headers arrive within the request's time too (Node's default is 60 s, whatever the request timeout).
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      // How often Node looks for requests past their time (30 s by default): a quarter of the
      // timeout, so a short one is kept to within a quarter.
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeoutMs / 4))),
    },
  });

  app.addHook("onRequest", async (request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    const refusal = refuse(request, options);
    if (refusal) return sendError(reply, refusal.status, refusal.code, refusal.message);
    // The address the server prints carries the token once: it becomes a cookie, and the
    // address is shown again without it (so it is not kept in history or bookmarks). An old
    // token (a server that made its own makes a new one at each start) sets nothing.
    const url = new URL(request.url, "http://server");
    if (url.searchParams.has("token") && request.method === "GET") {
      const presented = url.searchParams.get("token")!;
      url.searchParams.delete("token");
      if (tokenMatches(options.token, presented)) reply.header("set-cookie", tokenCookie(tokenCookieName(options.port()), options.token));
      return reply.redirect(url.pathname + url.search, 303);
    }
    return undefined;
  });

  // The API speaks snake_case like every other surface (src/core/wire-keys.ts); the handlers and
  // the page work in camelCase, and the page converts back as it reads (page/api.ts).
  app.addHook("preSerialization", async (request, _reply, payload) => (request.url.startsWith("/api/") ? wireKeys(payload) : payload));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // Uploads stream to a file and answer their own 413 (upload-routes.ts); this is any other body.
      return sendError(reply, 413, "too_large", "the request's body is larger than this address takes");
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return sendError(reply, 415, "not_pdf", "send the PDF's bytes as application/pdf");
    if (error.code === "FST_ERR_CTP_EMPTY_BODY") return sendError(reply, 400, "empty_file", "the file is empty (0 bytes)");
    if (error.validation) return sendError(reply, 400, "bad_request", `${error.validationContext ?? "request"} ${error.message.replace(/^\S+ /, "")}`);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, "bad_request", error.message);
    options.logError(`${request.method} ${request.url.split("?")[0]}: ${error.stack ?? error.message}`);
    return sendError(reply, 500, "server_error", "the server failed on this request; its log says why");
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 404, "not_found", `nothing at ${request.url.split("?")[0]!.slice(0, 200)}`));

  await app.register(pageRoutes(options));
  await app.register(searchRoutes(options));
  await app.register(documentRoutes(options));
  await app.register(uploadRoutes(options));
  await app.register(mcpRoutes(options));
  return app;
}

/** Why a request is refused before any route sees it, if it is. */
function refuse(request: FastifyRequest, options: ServerOptions): { status: number; code: string; message: string } | undefined {
  if (isLoopback(options.host)) {
    const host = request.headers.host ?? "";
    if (!allowedHosts(options.host, options.port()).has(host.toLowerCase())) {
      return { status: 403, code: "wrong_host", message: `this server answers only to its own address (http://${options.host}:${options.port()}/), not to ${JSON.stringify(host.slice(0, 100))}` };
    }
  }
  if (options.tokenRule === "every_request" || request.routeOptions.config?.adds === true) {
    let carries: boolean;
    try {
      carries = carriesToken(request, options);
    } catch (err) {
      if (err instanceof MalformedCookie) return { status: 400, code: "bad_cookie", message: err.message };
      throw err;
    }
    if (!carries) {
      const what = options.tokenRule === "every_request" ? "this server needs its token" : "adding a file to the source folder needs this server's token";
      return { status: 401, code: "token_required", message: `${what}: open the address \`pagestream serve\` printed (with ?token=…), or send Authorization: Bearer <token>` };
    }
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host}`) {
      return { status: 403, code: "wrong_origin", message: "a change may only come from this server's own page" };
    }
  }
  return undefined;
}

/** Whether a request carries the server's token (header, the page's cookie, or ?token=). Throws MalformedCookie. */
export function carriesToken(request: FastifyRequest, options: Pick<ServerOptions, "token" | "port">): boolean {
  const presented = presentedToken(request.headers, tokenCookieName(options.port())) ?? new URL(request.url, "http://server").searchParams.get("token") ?? undefined;
  return tokenMatches(options.token, presented);
}

export function mib(bytes: number): string {
  return `${Math.round((bytes / 1048576) * 10) / 10} MiB`;
}
