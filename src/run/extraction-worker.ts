/**
 * An extraction worker: a long-lived child process of the run (pdf.js costs ~0.3 s to import,
 * paid once per worker, not per document). It builds the stages from the same validated
 * config as the run, then runs one document at a time and sends its result back. The parent
 * watches its memory and time and kills it when a document runs over; see `worker-pool.ts`.
 */
import type { DocumentLimits, Stage } from "../core/plugin.js";
import { NO_LIMITS, processLoaded } from "./process-document.js";
import { loadSpec } from "../pipeline/registry.js";
import type { FromWorker, ToWorker } from "./worker-protocol.js";

const send = (message: FromWorker) => process.send!(message);

// The parent decides when a worker stops: a Ctrl-C reaches the whole process group, and the
// run must be able to finish the documents in flight (shutdown_timeout_seconds).
process.on("SIGINT", () => {});
process.on("SIGTERM", () => {});
// The parent is gone (killed, crashed): nothing will read our results.
process.on("disconnect", () => process.exit(0));

let stages: Stage[] = [];
let limits: DocumentLimits = NO_LIMITS;

process.on("message", (message: ToWorker) => {
  if (message.type === "init") {
    init(message).then(
      () => send({ type: "ready" }),
      (err: unknown) => send({ type: "init_failed", message: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  const { job, item, documentId, bytes } = message;
  const input = { item: { ...item, read: async () => bytes }, id: documentId, bytes };
  void processLoaded(input, stages, limits).then((result) => send({ type: "result", job, result }));
});

async function init(message: Extract<ToWorker, { type: "init" }>): Promise<void> {
  const context = { baseDir: message.baseDir, warn: (m: string) => send({ type: "warn", message: m }) };
  const built: Stage[] = [];
  for (const config of message.stages) {
    const spec = await loadSpec("stage", config.type, message.baseDir);
    built.push(await spec.create(config.options, context));
  }
  stages = built;
  limits = { maxPages: message.maxPages };
}
