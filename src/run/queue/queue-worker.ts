/**
 * `pagestream worker`: takes documents from the queue and runs them in the same sandbox as a
 * local run — the worker pool's capped child processes (timeout, memory cap, page limit), each
 * reading the document through its own copy of the source — and gives each outcome back to
 * the coordinator through the queue. It writes no sink and no run state.
 *
 * How outcomes become BullMQ's job states:
 * - a processed document (ok, or unchanged bytes) completes its job with the outcome;
 * - a failure that may pass on another try or another machine (the source could not be read,
 *   the extraction process was lost) fails the try: BullMQ tries again with backoff, up to
 *   queue.attempts;
 * - a limit failure (timeout, memory, pages, size) or bad input (not a PDF, damaged, encrypted…)
 *   is final at once (UnrecoverableError): a second try would end the same way.
 * Either failure leaves its error record in the job's data, so the coordinator delivers the
 * same record a local run would. A worker lost mid-job (kill -9) holds its job's lock no more:
 * another worker's stalled-job check puts the job back, and another worker takes it.
 *
 * A job this worker can no longer finish — Redis lost it (restarted empty), or its lock lapsed and
 * it went back to the queue — has its outcome dropped with a warning naming the document: the
 * coordinator adds a lost job again, and a lapsed one is taken again, so it is done once more.
 *
 * A job of another pipeline identity (other stages or options, limits, pagestream version) is
 * refused: it is put back in the queue for the workers it belongs to, and this worker stops
 * with an error naming both identities.
 */
import { UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { QueueOptions } from "../../pipeline/queue-options.js";
import type { RedisAddress } from "../../pipeline/redis-url.js";
import { TRANSIENT_CODES } from "../error-classes.js";
import type { JobOutcome } from "../processor.js";
import { RunRefused } from "../run-refused.js";
import { WorkerPool } from "../worker-pool.js";
import type { WorkerSetup } from "../worker-protocol.js";
import { HEARTBEAT_MS, QUEUE_PREFIX, readCoordinator, WorkerHeartbeat } from "./fleet.js";
import { encodeOutcome, identityDifference, type EncodedOutcome, type QueueIdentity, type QueueJobData } from "./queue-job.js";
import { reason, RedisWatch, redisOptions } from "./redis-connection.js";

/** Failures another try may undo: those about reaching the source, and a lost extraction process. */
const RETRIED_IN_QUEUE = new Set([...TRANSIENT_CODES, "worker_lost"]);
/** Closing connections to a Redis that is gone would wait forever: this long at most. */
const CLOSE_WAIT_MS = 2_000;
/**
 * BullMQ's refusal to finish a job this worker no longer holds (its finished-errors.js): the
 * job's key or lock is gone, or another worker holds it.
 */
const JOB_NOT_HELD = /^(?:Missing key for job|Missing lock for job|Lock mismatch for job) ([^\s.]+)/;

export interface QueueWorkerOptions {
  address: RedisAddress;
  queue: QueueOptions;
  setup: WorkerSetup;
  identity: QueueIdentity;
  /** Documents at once, each in an extraction process of its own. */
  concurrency: number;
  timeoutSeconds: number;
  maxWorkerMemoryMb: number;
  /** Aborted: take no new jobs, finish those in flight within `shutdownSeconds`, then stop. */
  stop: AbortSignal;
  shutdownSeconds: number;
  log: { info(message: string): void; warn(message: string): void };
}

/** The worker refused the run's jobs: they belong to a pipeline of another identity. */
export class WorkerRefused extends RunRefused {}

/** Runs until stopped (resolves), refused (rejects with WorkerRefused) or cut off from Redis (rejects). */
export async function runQueueWorker(options: QueueWorkerOptions): Promise<{ documents: number; pages: number }> {
  const { address, queue: settings, identity, log } = options;
  const connection = redisOptions(address);
  const redis = new Redis(connection);
  redis.on("error", () => {}); // the watch reports a Redis that stays away
  const heartbeat = new WorkerHeartbeat(redis, settings.name, options.concurrency, identity);

  let ended: (err?: Error) => void = () => {};
  const end = new Promise<Error | undefined>((resolve) => (ended = resolve));
  const refuse = async (difference: string): Promise<never> => {
    const message =
      `refused the jobs of the queue "${settings.name}" at ${address.shown}: they are for ${difference}. ` +
      `Start the worker with the coordinator's pipeline file and pagestream version`;
    heartbeat.record.refused = message;
    await heartbeat.beat().catch(() => {});
    throw new WorkerRefused(message);
  };

  // A coordinator at work already: its identity is compared before a job is taken.
  const coordinator = await readCoordinator(redis, settings.name);
  const difference = coordinator && identityDifference(coordinator.identity, identity);
  if (difference) {
    try {
      await refuse(difference);
    } finally {
      redis.disconnect();
    }
  }

  const pool = WorkerPool.start({ workers: options.concurrency, setup: options.setup, timeoutSeconds: options.timeoutSeconds, maxWorkerMemoryMb: options.maxWorkerMemoryMb, warn: log.warn });
  // Its extraction processes are started, and build the stages, before any job is taken: a worker
  // that cannot (a stage module missing on this machine) must not fail the documents it takes.
  try {
    await pool.ready();
  } catch (err) {
    pool.kill();
    redis.disconnect();
    throw err;
  }
  let refusal: WorkerRefused | undefined;
  /**
   * The jobs in hand, by id: their documents, for a warning about one that could not be finished,
   * and what a try counts once BullMQ has recorded it (a dropped outcome counts for nothing).
   */
  const inHand = new Map<string, { uri: string; counts?: { pages: number } }>();

  const process = async (job: Job<QueueJobData>, token?: string): Promise<EncodedOutcome> => {
    const data = job.data;
    const theirs = identityDifference(data.identity, identity);
    if (theirs) {
      // Back in the queue for the workers it belongs to; this worker stops.
      await job.moveToWait(token);
      if (!refusal) void refuse(theirs).catch((err: WorkerRefused) => ended((refusal = err)));
      throw new WaitingError();
    }
    if (job.id) inHand.set(job.id, { uri: data.item.uri });
    let outcome: JobOutcome | undefined;
    try {
      outcome = await pool.run({ item: data.item, ...(data.skipIfDocumentId ? { skipIfDocumentId: data.skipIfDocumentId } : {}) }, { progress: (pages) => void job.updateProgress(pages).catch(() => {}) });
    } catch (err) {
      // The extraction processes can no longer be started: this worker is of no use (the job is tried elsewhere).
      ended(err as Error);
      throw err;
    }
    if (!outcome) throw new Error("the worker is stopping: the document was not finished"); // the try counts; another worker takes it
    return settle(job, outcome);
  };

  const settle = async (job: Job<QueueJobData>, outcome: JobOutcome): Promise<EncodedOutcome> => {
    const encoded = encodeOutcome(outcome);
    const held = job.id ? inHand.get(job.id) : undefined;
    if (outcome.kind === "unchanged" || outcome.result.status === "ok") {
      if (held) held.counts = { pages: outcome.kind === "processed" && outcome.result.status === "ok" ? outcome.result.pages.length : 0 };
      return encoded;
    }
    const { code, message } = outcome.result.error;
    // The error record the coordinator delivers should this try be the last.
    await job.updateData({ ...job.data, outcome: encoded });
    if (held) held.counts = { pages: 0 };
    const text = `${job.data.item.uri}: ${code}: ${message}`;
    throw RETRIED_IN_QUEUE.has(code) ? new Error(text) : new UnrecoverableError(text);
  };

  const worker = new Worker<QueueJobData, EncodedOutcome>(settings.name, process, {
    connection,
    prefix: QUEUE_PREFIX,
    concurrency: options.concurrency,
    lockDuration: settings.lock_duration_seconds * 1000,
    stalledInterval: settings.stalled_interval_seconds * 1000,
    maxStalledCount: settings.max_stalled_count,
    autorun: false,
  });
  let redisTrouble = false;
  const finished = (job?: Job) => {
    const held = job?.id ? inHand.get(job.id) : undefined;
    if (!held) return;
    inHand.delete(job!.id!);
    if (!held.counts) return; // the try ended without an outcome (the worker stopping)
    heartbeat.record.documents++;
    heartbeat.record.pages += held.counts.pages;
  };
  worker.on("completed", finished);
  worker.on("failed", finished);
  worker.on("error", (err) => {
    const notHeld = JOB_NOT_HELD.exec(err.message);
    if (notHeld) {
      const id = notHeld[1]!;
      const uri = inHand.get(id)?.uri;
      inHand.delete(id);
      log.warn(
        `${uri ?? `job ${id}`}: the outcome is dropped, the job is no longer this worker's (${err.message.split("\n")[0]}): ` +
          "Redis lost its data, or the job's lock lapsed and it went back to the queue; it is done again",
      );
      return;
    }
    // Once per outage: while Redis is away every connection says so, again and again.
    if (!redisTrouble) log.warn(`the queue's Redis at ${address.shown}: ${reason(err)}; trying again for up to ${settings.reconnect_seconds} s`);
    redisTrouble = true;
  });
  const watch = new RedisWatch(address, settings.reconnect_seconds, (err) => ended(err));
  const beat = setInterval(() => {
    heartbeat.record.peak_worker_bytes = pool.peakWorkerBytes;
    heartbeat.beat().then(
      () => (redisTrouble = false),
      () => {},
    );
  }, HEARTBEAT_MS);
  beat.unref();
  await heartbeat.beat();
  options.stop.addEventListener("abort", () => ended(), { once: true });
  void worker.run().catch((err: Error) => ended(new Error(`the queue's worker stopped: ${reason(err)}`)));
  log.info(`worker ${heartbeat.record.id} takes documents from the queue "${settings.name}" at ${address.shown}, ${options.concurrency} at a time`);

  const failure = await end;
  clearInterval(beat);
  watch.stop();
  const within = (work: Promise<unknown>, ms: number) => Promise.race([work.catch(() => {}), new Promise((r) => setTimeout(r, ms).unref())]);
  if (failure && failure === refusal) {
    // Refused: closed gently, so that a job the worker fetched meanwhile goes through the
    // processor too and is put back (a forced close would leave it active, in nobody's hands,
    // until its lock lapsed).
    await within(worker.close(), options.shutdownSeconds * 1000);
    pool.kill();
    await within(worker.close(true), CLOSE_WAIT_MS);
  } else if (failure) {
    // Cut off from Redis: nothing more can be given back; jobs in flight go back to the queue when their locks lapse.
    pool.kill();
    await within(worker.close(true), CLOSE_WAIT_MS);
  } else {
    log.info(`stopping: taking no new documents; those in flight get up to ${options.shutdownSeconds} s`);
    const closing = worker.close();
    await within(closing, options.shutdownSeconds * 1000);
    pool.kill();
    await within(worker.close(true), CLOSE_WAIT_MS);
    await within(heartbeat.leave(), CLOSE_WAIT_MS);
  }
  await within(pool.close(), CLOSE_WAIT_MS);
  redis.disconnect();
  if (failure) throw failure;
  return { documents: heartbeat.record.documents, pages: heartbeat.record.pages };
}
