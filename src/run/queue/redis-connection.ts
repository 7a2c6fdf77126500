/**
 * The Redis under a queue: the options every connection is made with (BullMQ opens several:
 * commands, blocking reads, events), a check at start that it answers at all, and a watch that
 * decides when it has been gone too long.
 *
 * While Redis is unreachable, ioredis keeps reconnecting and holds commands back until it is
 * there again; that alone would wait forever. The watch pings once a second and, when no ping
 * has come back for `reconnect_seconds`, says the queue is lost: the coordinator and the
 * workers then stop with an error that names the address — never its password, which only
 * `RedisAddress` holds.
 */
import type { RedisOptions } from "bullmq";
import { Redis } from "ioredis";
import { isIP } from "node:net";
import type { RedisAddress } from "../../pipeline/redis-url.js";

/** Longest a reconnection attempt waits before the next (ioredis waits `retryStrategy` ms between them). */
const MAX_RECONNECT_DELAY_MS = 1_000;
/** How long the first connection may take before Redis counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
const PING_EVERY_MS = 1_000;
/**
 * How long a closed connection's socket may take to end before it is destroyed. ioredis's 2 s
 * default kept a command that could not connect alive for 2 s after it had said so.
 */
const DISCONNECT_TIMEOUT_MS = 200;

/** Options for every connection to the queue's Redis, ioredis's and BullMQ's (whose blocking reads need maxRetriesPerRequest: null). */
export function redisOptions(address: RedisAddress): RedisOptions {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username ? { username: address.username } : {}),
    ...(address.password ? { password: address.password } : {}),
    // SNI names a host, never an address (RFC 6066); the certificate is checked against either.
    ...(address.tls ? { tls: isIP(address.host) ? {} : { servername: address.host } } : {}),
    maxRetriesPerRequest: null,
    connectTimeout: CONNECT_TIMEOUT_MS,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
  };
}

/** Redis did not answer at start, or refused us (a wrong password, a TLS certificate not trusted). */
export class QueueUnreachable extends Error {
  override name = "QueueUnreachable";
}

/** Connects once, without retrying, and pings: throws QueueUnreachable naming the address and the reason. */
export async function checkReachable(address: RedisAddress): Promise<void> {
  const client = new Redis({ ...redisOptions(address), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  let lastError: Error | undefined;
  client.on("error", (err: Error) => (lastError = err));
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new QueueUnreachable(`cannot reach the queue's Redis at ${address.shown}: ${reason(lastError ?? err)}`);
  } finally {
    client.disconnect();
  }
}

/** A connection error in words: ioredis's own message, which names host and port but never the password. */
export function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/WRONGPASS|NOAUTH|invalid password/i.test(message)) return `it refused the credentials (${message.split("\n")[0]})`;
  return message.split("\n")[0] || "no answer";
}

/** Calls `onLost` once, when Redis has not answered a ping for `reconnectSeconds`. */
export class RedisWatch {
  private readonly client: Redis;
  private lastAnswer = Date.now();
  private lastError?: Error;
  private pinging = false;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly address: RedisAddress,
    private readonly reconnectSeconds: number,
    private readonly onLost: (err: Error) => void,
  ) {
    this.client = new Redis(redisOptions(address));
    this.client.on("error", (err: Error) => (this.lastError = err));
    this.timer = setInterval(() => this.tick(), PING_EVERY_MS);
    this.timer.unref();
  }

  /** The last connection error seen (for a message about a Redis that went away). */
  get error(): Error | undefined {
    return this.lastError;
  }

  private tick(): void {
    if (this.stopped) return;
    if (Date.now() - this.lastAnswer > this.reconnectSeconds * 1000) {
      this.stop();
      const why = this.lastError ? `: ${reason(this.lastError)}` : "";
      this.onLost(new Error(`lost the queue's Redis at ${this.address.shown}: no answer for ${this.reconnectSeconds} s (queue.reconnect_seconds)${why}`));
      return;
    }
    if (this.pinging) return;
    this.pinging = true;
    this.client.ping().then(
      () => {
        this.lastAnswer = Date.now();
        this.pinging = false;
      },
      (err: Error) => {
        this.lastError = err;
        this.pinging = false;
      },
    );
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.client.disconnect();
  }
}
