/**
 * Who works on a queue, kept in Redis beside BullMQ's own keys (under the queue's prefix, so
 * they go with it): the coordinator's claim, and a heartbeat of each worker. `pagestream
 * status --queue` reads both; a worker reads the claim to compare its identity with the run's
 * before it takes a job.
 *
 * One coordinator per queue: it is the only writer of its sinks and run state, and the only
 * process that adds and collects its jobs. The claim is a key with a time to live, renewed every
 * few seconds; a coordinator that is killed leaves it to expire, or — on the same host, where its
 * pid can be asked about — to be taken over at once by the next one.
 *
 * Beside the claim, a run marker without a time to live holds the claim's token for as long as
 * the run lasts. A claim may expire while its coordinator is only out of touch; the marker goes
 * only with Redis's data (a restart without persistence, a failover that lost writes). So a
 * renewal that finds the marker gone says the data was lost rather than recreating the claim as if
 * nothing had happened, and the coordinator adds again the jobs it waits for (queue-processor.ts).
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { RunSummary } from "../../core/plugin.js";
import { holderGone, lockHolder, type LockInfo } from "../run-lock.js";
import { RunRefused } from "../run-refused.js";
import type { QueueIdentity } from "./queue-job.js";

/** BullMQ's key prefix (its default, so BullMQ's own tools find the queue). */
export const QUEUE_PREFIX = "bull";
/** How long a claim or a heartbeat lasts without renewal. */
export const CLAIM_TTL_MS = 15_000;
/** How often the coordinator renews its claim and a worker writes its heartbeat. */
export const HEARTBEAT_MS = 3_000;
/** A worker's heartbeat older than this is dropped from the fleet's record. */
const FORGET_WORKER_MS = 24 * 3600 * 1000;

export const coordinatorKey = (queue: string) => `${QUEUE_PREFIX}:${queue}:pagestream:coordinator`;
export const workersKey = (queue: string) => `${QUEUE_PREFIX}:${queue}:pagestream:workers`;
/** The run marker: the token of the coordinator's claim, without a time to live. */
export const runKey = (queue: string) => `${QUEUE_PREFIX}:${queue}:pagestream:run`;

export interface CoordinatorRecord extends LockInfo {
  /** Tells this claim from another by the same process (a second run in one process). */
  token: string;
  pipeline: string;
  identity: QueueIdentity;
  updated_at: string;
  /** The run so far, as its summary counts it. */
  summary?: Pick<RunSummary, "listed" | "documents" | "ok" | "failed" | "skipped" | "pages" | "seconds">;
}

export interface WorkerRecord extends LockInfo {
  id: string;
  concurrency: number;
  identity: QueueIdentity;
  seen_at: string;
  /** Documents and pages this worker finished. */
  documents: number;
  pages: number;
  /** Highest resident memory of its extraction processes, in bytes. */
  peak_worker_bytes?: number;
  /** Set when the worker refused the run's jobs (another identity), with the reason. */
  refused?: string;
}

/** Claims the queue when nobody holds it, and marks the run (KEYS: claim, marker; ARGV: token, claim, ttl). */
const TAKE_SCRIPT = `
if not redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3], "NX") then return 0 end
redis.call("SET", KEYS[2], ARGV[1])
return 1`;
/**
 * Renews the claim while the run's marker is there and ours: 1; another coordinator's marker or
 * claim: 0; no marker at all, so Redis lost its data: -1 (and the claim is not recreated).
 */
const RENEW_SCRIPT = `
local run = redis.call("GET", KEYS[2])
if not run then return -1 end
if run ~= ARGV[1] then return 0 end
local current = redis.call("GET", KEYS[1])
if current and cjson.decode(current).token ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
return 1`;
/** After a loss of data: claim and marker again, unless another coordinator has taken the queue meanwhile. */
const RECLAIM_SCRIPT = `
local run = redis.call("GET", KEYS[2])
if run and run ~= ARGV[1] then return 0 end
local current = redis.call("GET", KEYS[1])
if current and cjson.decode(current).token ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
redis.call("SET", KEYS[2], ARGV[1])
return 1`;
/** Deletes the key only when it holds the claim given (compare-and-delete). */
const DELETE_IF_SCRIPT = `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0`;
/** Deletes claim and marker, where they are this run's. */
const RELEASE_SCRIPT = `
local current = redis.call("GET", KEYS[1])
if current and cjson.decode(current).token == ARGV[1] then redis.call("DEL", KEYS[1]) end
if redis.call("GET", KEYS[2]) == ARGV[1] then redis.call("DEL", KEYS[2]) end
return 1`;

/** What a renewal found: the claim renewed, taken by another coordinator, or gone with the rest of Redis's data. */
export type ClaimRenewal = "renewed" | "taken" | "data_lost";

/** The queue is claimed by another coordinator that is still alive (or cannot be checked from here). */
export class QueueClaimed extends RunRefused {}

export class CoordinatorClaim {
  private record: CoordinatorRecord;
  private lost = false;

  private constructor(
    private readonly redis: Redis,
    private readonly queue: string,
    pipeline: string,
    identity: QueueIdentity,
  ) {
    this.record = { ...lockHolder(), token: randomUUID(), pipeline, identity, updated_at: new Date().toISOString() };
  }

  /**
   * Claims the queue for this run. A claim of a coordinator that is gone (same host, its process
   * dead) is taken over; a live one refuses the run. Returns the claim, and the identity of the
   * run that held the queue before, if any (its leftover jobs are of no use under another one).
   */
  static async take(redis: Redis, queue: string, pipeline: string, identity: QueueIdentity, shown: string): Promise<CoordinatorClaim> {
    const claim = new CoordinatorClaim(redis, queue, pipeline, identity);
    const key = coordinatorKey(queue);
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await redis.eval(TAKE_SCRIPT, 2, key, runKey(queue), claim.record.token, JSON.stringify(claim.record), CLAIM_TTL_MS)) === 1) return claim;
      const text = await redis.get(key);
      if (text === null) continue;
      const holder = JSON.parse(text) as CoordinatorRecord;
      if (!holderGone(holder)) {
        const where = holder.host === claim.record.host ? "" : ` on ${holder.host}`;
        throw new QueueClaimed(
          `another coordinator (pid ${holder.pid}${where}, started ${holder.started_at}, ${holder.pipeline}) runs the queue "${queue}" at ${shown}: one coordinator per queue — give this pipeline its own queue.name` +
            (where ? `, or wait ${CLAIM_TTL_MS / 1000} s after that run is gone` : ""),
        );
      }
      await redis.eval(DELETE_IF_SCRIPT, 1, key, text);
    }
    throw new Error(`could not claim the queue "${queue}" at ${shown}: the claim keeps changing (several coordinators starting at once?)`);
  }

  /** Renews the claim, with the run's progress for `pagestream status`. Once another coordinator holds it, always "taken". */
  async renew(summary?: CoordinatorRecord["summary"]): Promise<ClaimRenewal> {
    if (this.lost) return "taken";
    this.record = { ...this.record, updated_at: new Date().toISOString(), ...(summary ? { summary } : {}) };
    const done = await this.redis.eval(RENEW_SCRIPT, 2, coordinatorKey(this.queue), runKey(this.queue), this.record.token, JSON.stringify(this.record), CLAIM_TTL_MS);
    if (done === -1) return "data_lost";
    if (done !== 1) this.lost = true;
    return this.lost ? "taken" : "renewed";
  }

  /** Claims the queue again after Redis lost its data. False when another coordinator took it meanwhile. */
  async reclaim(): Promise<boolean> {
    if (this.lost) return false;
    this.record = { ...this.record, updated_at: new Date().toISOString() };
    const done = await this.redis.eval(RECLAIM_SCRIPT, 2, coordinatorKey(this.queue), runKey(this.queue), this.record.token, JSON.stringify(this.record), CLAIM_TTL_MS);
    if (done !== 1) this.lost = true;
    return !this.lost;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 2, coordinatorKey(this.queue), runKey(this.queue), this.record.token);
  }
}

/** The coordinator's claim as stored, if a coordinator holds the queue. */
export async function readCoordinator(redis: Redis, queue: string): Promise<CoordinatorRecord | undefined> {
  const text = await redis.get(coordinatorKey(queue));
  return text ? (JSON.parse(text) as CoordinatorRecord) : undefined;
}

/** A worker's record in the fleet, written at every heartbeat. */
export class WorkerHeartbeat {
  readonly record: WorkerRecord;

  constructor(
    private readonly redis: Redis,
    private readonly queue: string,
    concurrency: number,
    identity: QueueIdentity,
  ) {
    const self = lockHolder();
    this.record = { ...self, id: `${self.host}:${self.pid}`, concurrency, identity, seen_at: self.started_at, documents: 0, pages: 0 };
  }

  async beat(): Promise<void> {
    this.record.seen_at = new Date().toISOString();
    const key = workersKey(this.queue);
    await this.redis.hset(key, this.record.id, JSON.stringify(this.record));
    // Workers long gone (killed, their machine lost) are forgotten after a day.
    for (const worker of await readWorkers(this.redis, this.queue)) {
      if (Date.now() - Date.parse(worker.seen_at) > FORGET_WORKER_MS) await this.redis.hdel(key, worker.id);
    }
  }

  /** A worker that stops cleanly leaves the record; a refusal stays, for `status` to show. */
  async leave(): Promise<void> {
    if (this.record.refused) await this.beat();
    else await this.redis.hdel(workersKey(this.queue), this.record.id);
  }
}

export async function readWorkers(redis: Redis, queue: string): Promise<WorkerRecord[]> {
  const all = await redis.hgetall(workersKey(queue));
  return Object.values(all)
    .map((text) => JSON.parse(text) as WorkerRecord)
    .sort((a, b) => a.id.localeCompare(b.id));
}
