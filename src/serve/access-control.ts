/**
 * Who may ask. Two checks on every request, before any route runs:
 *
 * - The Host header must name this server when it listens on loopback. A web page elsewhere
 *   can point a name of its own at 127.0.0.1 (DNS rebinding) and read what answers there; the
 *   browser then sends that name as Host, and the request is refused.
 * - With a token (`--token`, `PAGESTREAM_TOKEN`), every request must carry it: as
 *   `Authorization: Bearer …` (for programs), or as the cookie the server sets when the page is
 *   first opened with `?token=…` (the address the server prints), which the browser then sends
 *   with every request of the page, the pdf.js worker's included. The cookie is HttpOnly and
 *   SameSite=Strict: no script reads it and no other site's page sends it.
 *
 * Requests that change something (POST) must also come from the page itself: a browser adds
 * Origin to a cross-site POST, and one that is not this server's is refused.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export const TOKEN_COOKIE = "pagestream_token";

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

/** A token cookie that is not valid percent-encoding: a request the server cannot read (400), not a wrong token. */
export class MalformedCookie extends Error {
  constructor(readonly cookie: string) {
    super(`the ${cookie} cookie is not valid percent-encoding: delete it and open the address \`pagestream serve\` printed`);
  }
}

/** The token a request carries: Authorization: Bearer, or the page's cookie. Throws MalformedCookie. */
export function presentedToken(headers: { authorization?: string; cookie?: string }): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "")?.[1];
  if (bearer) return bearer.trim();
  for (const part of (headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== TOKEN_COOKIE) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      throw new MalformedCookie(TOKEN_COOKIE);
    }
  }
  return undefined;
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}
