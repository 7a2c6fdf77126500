/**
 * A Redis address as a user writes it (`redis://:secret@host:6379/0`, `rediss://…` for TLS),
 * taken apart once: the parts a client connects with, and the same address with its password
 * masked, which is the only form any message, log line or summary may show.
 */

export interface RedisAddress {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The address as it may be shown: `redis://:***@host:6379`, never the password. */
  shown: string;
}

export type ParsedRedisUrl = { ok: true; address: RedisAddress } | { ok: false; problem: string };

const DEFAULT_PORT = 6379;

export function parseRedisUrl(text: string): ParsedRedisUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text itself may hold a password: say what it looks like, not what it is.
    return { ok: false, problem: `not a URL: write redis://host:6379 or rediss://host:6379 (TLS)${text.includes("@") ? " (the value is not shown: it may hold a password)" : ""}` };
  }
  const shown = redacted(url);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return { ok: false, problem: `${shown} is not a Redis URL: it must start with redis:// or rediss:// (TLS)` };
  if (!url.hostname) return { ok: false, problem: `${shown} names no host` };
  const port = url.port ? Number(url.port) : DEFAULT_PORT;
  const dbText = url.pathname.replace(/^\//, "");
  const db = dbText === "" ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) return { ok: false, problem: `${shown}: the path must be a database number (/0, /1, …), not "/${dbText}"` };
  if (url.search || url.hash) return { ok: false, problem: `${shown}: options after ? or # are not read; set them under queue: in the pipeline file` };
  return {
    ok: true,
    address: {
      host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port,
      db,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      tls: url.protocol === "rediss:",
      shown,
    },
  };
}

/** The URL with its password replaced by ***; the user name stays (it is not a secret, and it tells accounts apart). */
function redacted(url: URL): string {
  const credentials = url.username || url.password ? `${url.username}${url.password ? ":***" : ""}@` : "";
  return `${url.protocol}//${credentials}${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}
