/**
 * Who may ask. Checks on every request, before any route runs:
 *
 * - The Host header must name this server when it listens on loopback. A web page elsewhere
 *   can point a name of its own at 127.0.0.1 (DNS rebinding) and read what answers there; the
 *   browser then sends that name as Host, and the request is refused.
 * - The server always has a token: the one given (`--token`, `PAGESTREAM_TOKEN`), or one it
 *   makes at start and prints in its address, as Jupyter does. Where it is needed (see
 *   tokenRule), a request carries it as `Authorization: Bearer …` (for programs), or as the
 *   cookie the server sets when the page is first opened with `?token=…` (the address the
 *   server prints), which the browser then sends with every request of the page, the pdf.js
 *   worker's included. The cookie is HttpOnly and SameSite=Strict: no script reads it and no
 *   other site's page sends it. Its name carries the port, so two servers on one machine do
 *   not replace each other's.
 *
 * Requests that change something (POST) must also come from the page itself: a browser adds
 * Origin to a cross-site POST, and one that is not this server's is refused.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/**
 * Which requests need the token:
 * - `every_request` when a token was given, or the server listens beyond loopback (anyone who
 *   can reach the address could otherwise read the archive and write into the source folder);
 * - `adding` on loopback with the token the server made: reading and extracting stay open to
 *   this machine, as before, but adding a file to the source folder (a write another local
 *   user must not make) needs it.
 */
export type TokenRule = "every_request" | "adding";

export function tokenRule(host: string, given: boolean): TokenRule {
  return given || !isLoopback(host) ? "every_request" : "adding";
}

/** A token for a server started without one: 24 random bytes, URL-safe (32 characters). */
export function generatedToken(): string {
  return randomBytes(24).toString("base64url");
}

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || (isIP(bare) === 4 && bare.startsWith("127."));
}

/** The Host values a loopback server answers to. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host, "localhost", "127.0.0.1", "[::1]"]);
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** Compares a presented token with the server's in constant time. */
export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = createHash("sha256").update(expected).digest();
  const b = createHash("sha256").update(presented).digest();
  return timingSafeEqual(a, b);
}

/** The page's cookie for the server on `port`. */
export function tokenCookieName(port: number): string {
  return `pagestream_token_${port}`;
}

/** A token cookie that is not valid percent-encoding: a request the server cannot read (400), not a wrong token. */
export class MalformedCookie extends Error {
  constructor(readonly cookie: string) {
    super(`the ${cookie} cookie is not valid percent-encoding: delete it and open the address \`pagestream serve\` printed`);
  }
}

/** The token a request carries: Authorization: Bearer, or the page's cookie. Throws MalformedCookie. */
export function presentedToken(headers: { authorization?: string; cookie?: string }, cookieName: string): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "")?.[1];
  if (bearer) return bearer.trim();
  for (const part of (headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== cookieName) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      throw new MalformedCookie(cookieName);
    }
  }
  return undefined;
}

export function tokenCookie(cookieName: string, token: string): string {
  return `${cookieName}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}
