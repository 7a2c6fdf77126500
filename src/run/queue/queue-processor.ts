/**
 * The coordinator's processor: documents go to a BullMQ queue in Redis instead of the local
 * pool, and workers on any machine (`pagestream worker`) take them. The run around it is the
 * local run's (`runPipeline`): it lists, plans, delivers in order and checkpoints; this only
 * turns a job into a queued one and its outcome back.
 *
 * - A job is added under an id derived from what its outcome depends on (queue-job.ts), so a
 *   restarted coordinator adds the same jobs again and collects those that finished meanwhile.
 * - Outcomes are collected from the queue's event stream ('completed', 'failed'), checked once
 *   right after the add (the job may have finished before this run), and swept every few
 *   seconds in case an event was missed (a reconnection after the stream was trimmed).
 * - A finished job stays in Redis until the run state has recorded its outcome (`committed`):
 *   a coordinator killed before that finds it again. Then a completed job is removed; a failed
 *   one stays in BullMQ's failed set with its reason (kept a week, at most 10,000).
 * - Redis unreachable for `reconnect_seconds`, or the queue claimed by another coordinator:
 *   every job in flight fails with ProcessorFailed, and the run stops after committing what it
 *   delivered.
 * - Redis back without its data (restarted without persistence, a failover that lost writes):
 *   the run's marker is gone (fleet.ts), so the coordinator says so, claims the queue again and
 *   adds every job it waits for again under the same id; a single job found missing while the
 *   marker is there is added again alone. A worker that held a lost job cannot complete it (its
 *   lock went with the data), so each outcome is delivered once.
 */
import { Job, Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { DocumentError } from "../../core/document-error.js";
import type { RunSummary } from "../../core/plugin.js";
import type { QueueOptions } from "../../pipeline/queue-options.js";
import type { RedisAddress } from "../../pipeline/redis-url.js";
import { failedResult } from "../process-document.js";
import { ProcessorFailed, type DocumentJob, type DocumentProcessor, type JobHooks, type JobOutcome } from "../processor.js";
import { CoordinatorClaim, HEARTBEAT_MS, QUEUE_PREFIX, readWorkers, type CoordinatorRecord } from "./fleet.js";
import { decodeOutcome, identityDifference, isEncodedOutcome, jobData, jobIdOf, type QueueIdentity, type QueueJobData } from "./queue-job.js";
import { reason, RedisWatch, redisOptions } from "./redis-connection.js";

/** How often jobs in flight are looked up directly, in case their event was missed. */
const SWEEP_MS = 10_000;
/** A completed job nobody collected (its run was stopped and not started again) is dropped after a day. */
const KEEP_COMPLETED_SECONDS = 24 * 3600;
/** Failed jobs stay in the failed set, with their reasons, for a week (at most this many). */
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 10_000 };
/** Closing a connection to a Redis that is gone would wait forever: this long at most. */
const CLOSE_WAIT_MS = 2_000;
/** Events kept in the queue's stream, per job in flight (a job makes about six: added, waiting, active, progress, completed, removed). */
const EVENTS_PER_JOB = 8;

export interface QueueProcessorOptions {
  address: RedisAddress;
  queue: QueueOptions;
  identity: QueueIdentity;
  /** The pipeline file, as the claim names it for `pagestream status`. */
  pipelineFile: string;
  /** The run's live summary, shown by `pagestream status`. */
  summary?: RunSummary;
  warn(message: string): void;
}

interface Waiter {
  job: DocumentJob;
  hooks?: JobHooks;
  resolve(outcome: JobOutcome | undefined): void;
  reject(err: Error): void;
}

export class QueueProcessor implements DocumentProcessor {
  private readonly pending = new Map<string, Waiter[]>();
  /** Pending jobs whose add Redis has confirmed: one of these that Redis no longer knows was lost there. */
  private readonly added = new Set<string>();
  /** Claiming again and adding the jobs again after Redis lost its data, while under way. */
  private recovering?: Promise<void>;
  /** Jobs collected whose outcomes the run state has not recorded yet: completed ones are removed once it has. */
  private readonly collected = new Map<string, "completed" | "failed">();
  private failure?: ProcessorFailed;
  private stopping = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly workersSeen = new Set<string>();
  /** Removals of committed jobs under way. */
  private readonly removals = new Set<Promise<void>>();
  private readonly refusalsTold = new Set<string>();
  private liveConcurrency = 0;
  private peakBytes = 0;
  private readonly watch: RedisWatch;

  private constructor(
    private readonly options: QueueProcessorOptions,
    private readonly redis: Redis,
    private readonly claim: CoordinatorClaim,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {
    this.watch = new RedisWatch(options.address, options.queue.reconnect_seconds, (err) => this.fail(err.message));
    this.timers.push(setInterval(() => void this.heartbeat(), HEARTBEAT_MS), setInterval(() => this.sweep(), SWEEP_MS));
    for (const timer of this.timers) timer.unref();
  }

  /** Claims the queue for this run and starts listening for outcomes. Redis must answer (see checkReachable). */
  static async open(options: QueueProcessorOptions): Promise<QueueProcessor> {
    const { address, queue: settings, identity } = options;
    const connection = redisOptions(address);
    const redis = new Redis(connection);
    redis.on("error", () => {}); // the watch reports a Redis that stays away
    let claim: CoordinatorClaim | undefined;
    try {
      claim = await CoordinatorClaim.take(redis, settings.name, options.pipelineFile, identity, address.shown);
      const queue = new Queue(settings.name, { connection, prefix: QUEUE_PREFIX, streams: { events: { maxLen: Math.max(1_000, settings.max_jobs_in_flight * EVENTS_PER_JOB) } } });
      queue.on("error", () => {});
      const events = new QueueEvents(settings.name, { connection, prefix: QUEUE_PREFIX });
      events.on("error", () => {});
      await events.waitUntilReady();
      const processor = new QueueProcessor(options, redis, claim, queue, events);
      await processor.dropLeftovers();
      events.on("completed", ({ jobId, returnvalue }) => processor.completed(jobId, returnvalue));
      events.on("failed", ({ jobId }) => void processor.collect(jobId));
      events.on("progress", ({ jobId, data }) => {
        if (typeof data === "number") for (const waiter of processor.pending.get(jobId) ?? []) waiter.hooks?.progress?.(data);
      });
      await processor.heartbeat();
      return processor;
    } catch (err) {
      await claim?.release().catch(() => {});
      redis.disconnect();
      throw err;
    }
  }

  get capacity(): number {
    return Math.max(1, this.liveConcurrency);
  }

  get maxInFlight(): number {
    return this.options.queue.max_jobs_in_flight;
  }

  /** Highest resident memory any worker's extraction process reported. */
  get peakWorkerBytes(): number {
    return this.peakBytes;
  }

  /** Workers that took part (seen in the fleet with this run's identity). */
  get started(): number {
    return this.workersSeen.size;
  }

  async run(job: DocumentJob, hooks?: JobHooks): Promise<JobOutcome | undefined> {
    if (this.failure) throw this.failure;
    if (this.stopping) return undefined;
    const id = jobIdOf(job, this.options.identity);
    return new Promise<JobOutcome | undefined>((resolve, reject) => {
      const waiters = this.pending.get(id) ?? [];
      waiters.push({ job, ...(hooks ? { hooks } : {}), resolve, reject });
      this.pending.set(id, waiters);
      this.add(id);
    });
  }

  /**
   * Adds a pending job to the queue under its id. An id already there (from a run that was
   * stopped or killed, or added again after a loss) is not added twice: its job is waited for, or
   * collected at once.
   */
  private add(id: string): void {
    const job = this.pending.get(id)?.[0]?.job;
    if (!job) return;
    const { attempts, backoff_seconds } = this.options.queue;
    this.queue
      .add("document", jobData(job, this.options.identity), {
        jobId: id,
        attempts,
        backoff: { type: "exponential", delay: backoff_seconds * 1000 },
        removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
        removeOnFail: KEEP_FAILED,
      })
      .then(
        () => {
          if (this.pending.has(id)) this.added.add(id);
          return this.collect(id);
        },
        (err: unknown) => this.fail(`could not add a job to the queue at ${this.options.address.shown}: ${reason(err)}`),
      );
  }

  committed(jobs: readonly DocumentJob[]): void {
    for (const job of jobs) {
      const id = jobIdOf(job, this.options.identity);
      const state = this.collected.get(id);
      this.collected.delete(id);
      // A failed job stays in the failed set, with its reason, for people to see.
      if (state !== "completed" || this.failure) continue;
      const removal = this.queue.remove(id).then(
        () => {},
        () => {}, // a job left behind is dropped after a day (KEEP_COMPLETED_SECONDS)
      );
      this.removals.add(removal);
      void removal.finally(() => this.removals.delete(removal));
    }
  }

  /** Stops now: outcomes not collected yet are abandoned (their jobs stay queued for the next run). */
  kill(): void {
    this.stopping = true;
    this.settleAll(undefined);
    void this.shutDown();
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.settleAll(undefined);
    await this.shutDown();
  }

  private shuttingDown?: Promise<void>;

  private shutDown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      for (const timer of this.timers) clearInterval(timer);
      this.watch.stop();
      const gone = this.failure !== undefined;
      const within = (work: Promise<unknown>) => Promise.race([work.catch(() => {}), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
      // The last checkpoint's removals, before the connection closes under them.
      if (!gone) await within(Promise.all(this.removals));
      if (!gone) await within(this.claim.release());
      await within(this.events.close());
      await within(this.queue.close());
      this.redis.disconnect();
    })();
    return this.shuttingDown;
  }

  /** A 'completed' event: the outcome travels in it. */
  private completed(id: string, returnvalue: unknown): void {
    if (!this.pending.has(id)) return;
    if (isEncodedOutcome(returnvalue)) this.settle(id, "completed", decodeOutcome(returnvalue));
    else void this.collect(id);
  }

  /** Looks the job up: a finished one is settled. */
  private async collect(id: string): Promise<void> {
    if (!this.pending.has(id)) return;
    let job: Job<QueueJobData> | undefined;
    let state: string;
    try {
      state = await this.queue.getJobState(id);
      if (state === "unknown" && this.added.has(id)) return await this.vanished(id);
      if (state !== "completed" && state !== "failed") return;
      job = await Job.fromId<QueueJobData>(this.queue, id);
    } catch {
      return; // Redis is away: the watch decides when that is too long, the sweep tries again
    }
    const waiters = this.pending.get(id);
    if (!job || !waiters) return;
    if (state === "failed") {
      this.settle(id, "failed", isEncodedOutcome(job.data.outcome) ? decodeOutcome(job.data.outcome) : this.gaveUp(waiters[0]!.job, job));
    } else if (isEncodedOutcome(job.returnvalue)) {
      this.settle(id, "completed", decodeOutcome(job.returnvalue));
    }
  }

  /** A job the queue failed without a worker's outcome: it stalled too often (its workers were lost), or was failed by hand. */
  private gaveUp(job: DocumentJob, queued: Job<QueueJobData>): JobOutcome {
    const stalled = /stalled/i.test(queued.failedReason);
    const message = stalled
      ? `every worker that took it was lost mid-job (${queued.failedReason}; queue.max_stalled_count ${this.options.queue.max_stalled_count}): killed from outside, a machine gone, or a document that crashes its worker`
      : `the queue gave the job up: ${queued.failedReason}`;
    return { kind: "processed", documentId: null, result: failedResult(job.item.uri, new DocumentError("worker_lost", message)) };
  }

  private settle(id: string, state: "completed" | "failed", outcome: JobOutcome): void {
    const waiters = this.pending.get(id);
    if (!waiters) return;
    this.pending.delete(id);
    this.added.delete(id);
    this.collected.set(id, state);
    for (const waiter of waiters) waiter.resolve(outcome);
  }

  private settleAll(outcome: undefined): void {
    for (const waiters of this.pending.values()) for (const waiter of waiters) waiter.resolve(outcome);
    this.pending.clear();
    this.added.clear();
  }

  private fail(message: string): void {
    if (this.failure || this.stopping) return;
    this.failure = new ProcessorFailed(`${message}. What was delivered is kept; the next run goes on from there`);
    for (const waiters of this.pending.values()) for (const waiter of waiters) waiter.reject(this.failure);
    this.pending.clear();
    this.added.clear();
  }

  private sweep(): void {
    for (const id of [...this.pending.keys()]) void this.collect(id);
  }

  /** Renews the claim (with the run's progress) and reads the fleet: who works for this run, who refused it. */
  private async heartbeat(): Promise<void> {
    if (this.failure || this.stopping) return;
    try {
      const s = this.options.summary;
      const summary = s ? { listed: s.listed, documents: s.documents, ok: s.ok, failed: s.failed, skipped: s.skipped, pages: s.pages, seconds: s.seconds } : undefined;
      if (!(await this.keepClaim(summary))) return;
      let live = 0;
      for (const worker of await readWorkers(this.redis, this.options.queue.name)) {
        const difference = identityDifference(this.options.identity, worker.identity);
        if (worker.refused || difference) {
          if (!this.refusalsTold.has(worker.id)) this.options.warn(`worker ${worker.id} refuses this run's jobs: ${worker.refused ?? difference}`);
          this.refusalsTold.add(worker.id);
          continue;
        }
        if (Date.now() - Date.parse(worker.seen_at) > 3 * HEARTBEAT_MS) continue;
        this.workersSeen.add(worker.id);
        this.peakBytes = Math.max(this.peakBytes, worker.peak_worker_bytes ?? 0);
        live += worker.concurrency;
      }
      this.liveConcurrency = live;
    } catch {
      // Redis is away: the watch decides when that is too long
    }
  }

  /**
   * Renews the claim and acts on what the renewal found: another coordinator holds the queue (the
   * run stops), or Redis lost its data (the jobs are added again). True when the run's keys are
   * there as this run left them.
   */
  private async keepClaim(summary?: CoordinatorRecord["summary"]): Promise<boolean> {
    const renewal = await this.claim.renew(summary);
    if (renewal === "taken") this.fail(`another coordinator took the queue "${this.options.queue.name}" at ${this.options.address.shown} (this one was out of touch with Redis for longer than its claim lasts)`);
    if (renewal === "data_lost") await (this.recovering ??= this.recover().finally(() => (this.recovering = undefined)));
    return renewal === "renewed";
  }

  /** Redis came back without this run's keys: the queue is claimed again, and every job waited for is added again under its id. */
  private async recover(): Promise<void> {
    if (!(await this.claim.reclaim())) {
      this.fail(`another coordinator took the queue "${this.options.queue.name}" at ${this.options.address.shown} after its Redis lost its data`);
      return;
    }
    const ids = [...this.pending.keys()];
    this.options.warn(
      `the queue's Redis at ${this.options.address.shown} lost its data (restarted without persistence, or a failover that lost writes): ` +
        `${ids.length} job(s) this run waits for are added again under the same ids`,
    );
    for (const id of ids) {
      this.added.delete(id);
      this.add(id);
    }
  }

  /** A job Redis had confirmed and no longer knows: lost with all of the run's keys, or alone (a failover that lost the latest writes). */
  private async vanished(id: string): Promise<void> {
    if (!(await this.keepClaim())) return; // lost with the rest, and added again; or the run stops
    if (!this.added.has(id) || (await this.queue.getJobState(id)) !== "unknown") return;
    const uri = this.pending.get(id)?.[0]?.job.item.uri ?? id;
    this.options.warn(`the job for ${uri} vanished from the queue's Redis at ${this.options.address.shown} (a failover that lost writes?): added again under the same id`);
    this.added.delete(id);
    this.add(id);
  }

  /**
   * Jobs left queued by an earlier run under another identity (its config changed since, or
   * pagestream did): no worker of this run would take them, and they would block the queue's
   * head. Jobs of this identity stay: this run adds them again and collects them.
   */
  private async dropLeftovers(): Promise<void> {
    const leftovers = await this.queue.getJobs(["waiting", "delayed", "prioritized"]);
    let dropped = 0;
    for (const job of leftovers) {
      const data = job?.data as QueueJobData | undefined;
      if (!job?.id || (data?.identity && !identityDifference(data.identity, this.options.identity))) continue;
      await this.queue.remove(job.id).catch(() => {});
      dropped++;
    }
    if (dropped) this.options.warn(`dropped ${dropped} job(s) an earlier run left in the queue "${this.options.queue.name}" under another pipeline identity`);
  }
}
