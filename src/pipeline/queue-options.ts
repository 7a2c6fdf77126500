/**
 * `queue:` in pipeline.yaml: where the jobs of a distributed run go (a Redis that BullMQ keeps
 * its queue in) and how faults are handled there. Pure, like the rest of the file's validation:
 * the address is checked as text; whether Redis answers is the run's business.
 */
import { z } from "zod";
import { parseRedisUrl } from "./redis-url.js";

const url = z
  .string()
  .superRefine((value, ctx) => {
    const parsed = parseRedisUrl(value);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.problem });
  })
  .describe(
    "The Redis that holds the queue: redis://[user:password@]host[:port][/db], or rediss:// for TLS (the server's certificate is checked against the system's CAs and NODE_EXTRA_CA_CERTS). Write a password as ${REDIS_PASSWORD}, not in the file. `--queue URL` on the command line takes precedence; without either the run is local.",
  );

export const queueOptions = z.strictObject({
  url: url.optional(),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "use letters, digits, '.', '_' or '-' (at most 64)")
    .default("pagestream")
    .describe("The BullMQ queue's name. One coordinator per queue at a time: pipelines that share a Redis each need their own."),
  max_jobs_in_flight: z
    .int()
    .min(2)
    .max(10_000)
    .default(64)
    .describe(
      "Documents the coordinator keeps queued or running at once; finished ones wait in Redis until the documents listed before them are done. At least twice the fleet's total worker concurrency keeps every worker busy.",
    ),
  attempts: z
    .int()
    .min(1)
    .max(100)
    .default(3)
    .describe(
      "Tries for a document whose failure may pass (the source could not be read from that worker, its extraction process was lost), with exponential backoff. Limit failures (timeout, memory, pages) and bad input are final at once.",
    ),
  backoff_seconds: z.number().min(0).default(5).describe("Wait before the second try; it doubles for each try after it."),
  lock_duration_seconds: z
    .number()
    .positive()
    .default(30)
    .describe("How long a worker's hold on a job lasts unless renewed (it renews at half). A worker lost mid-job (kill -9, a machine gone) gives its job up after this long."),
  stalled_interval_seconds: z
    .number()
    .positive()
    .default(30)
    .describe("How often workers look for jobs whose holder is gone and put them back in the queue for another worker."),
  max_stalled_count: z
    .int()
    .min(0)
    .default(1)
    .describe("Times a job may be taken back from a lost worker; once more and the document fails with worker_lost (a PDF that kills every worker that opens it)."),
  reconnect_seconds: z
    .number()
    .positive()
    .default(60)
    .describe("How long the coordinator and the workers try to reach Redis again after losing it, before they stop with an error (what was delivered is kept; the next run goes on)."),
});

export type QueueOptions = z.output<typeof queueOptions>;

/** `queue: redis://…` is short for `queue: { url: redis://… }`. */
export const queueSetting = z
  .union([url, queueOptions])
  .transform((value) => (typeof value === "string" ? queueOptions.parse({ url: value }) : value))
  .describe(
    "A distributed run over BullMQ and Redis (see docs/many-machines.md): a Redis URL, or its settings with `url`. `pagestream run` is then the coordinator, `pagestream worker` processes the documents on any number of machines.",
  );

/** The defaults, for a queue named only on the command line. */
export const DEFAULT_QUEUE_OPTIONS: QueueOptions = queueOptions.parse({});
