/**
 * An extraction worker: a long-lived child process of the run (pdf.js costs ~0.3 s to import,
 * paid once per worker, not per document). It builds the source and the stages from the same
 * validated config as the run, then takes one job at a time: reads the document through its
 * source, runs the stages, sends the records back in parts as the stages emit them, then the
 * outcome. The parent watches its memory and time
 * and kills it when a document runs over; see `worker-pool.ts`.
 */
import { setImmediate } from "node:timers/promises";
import type { Source, Stage } from "../core/plugin.js";
import { loadPdfJs } from "../stages/extract/pdfjs-loader.js";
import { saveCodeCaches } from "../script-code-cache.js";
import { exitWithParent, finishEvenWithoutParent } from "./parent-watch.js";
import { buildWorkerComponents } from "./worker-components.js";
import { failedResult, processJob } from "./process-document.js";
import { DocumentError, describeError } from "../core/document-error.js";
import type { JobOutcome } from "./processor.js";
import type { ResultPart } from "./result-parts.js";
import { PROGRESS_MS, type FromWorker, type ToWorker, type WorkerSetup } from "./worker-protocol.js";

const send = (message: FromWorker) => process.send!(message);

// The parent decides when a worker stops: a Ctrl-C reaches the whole process group, and the
// run must be able to finish the documents in flight (shutdown_timeout_seconds).
process.on("SIGINT", () => {});
process.on("SIGTERM", () => {});
// The parent is gone (killed, crashed): nothing will read our results. 'disconnect' tells a
// worker that waits; one busy extracting learns it from its watching thread.
process.on("disconnect", () => process.exit(0));
exitWithParent();

let built: { setup: WorkerSetup; source: Source; stages: Stage[]; chunks: boolean } | undefined;
/** The job being worked on. */
let current: { id: number; uri: string } | undefined;

// A document can fail outside any call pagestream awaits: a promise pdf.js or a stage rejects
// with no one listening (pdf.js did, for pages it fetched ahead, before patch 18), an error
// thrown from a timer. The document fails with what happened, as a damaged one, and the worker,
// whose pdf.js may be in any state, ends; the pool starts another. Without a job, the worker
// dies as any process would.
function failInFlight(err: unknown): void {
  if (!current || !process.connected) {
    process.stderr.write(`pagestream extraction worker: ${describeError(err)}\n`);
    process.exit(1);
  }
  const error = new DocumentError("damaged", `reading it failed outside any call pagestream awaits (pdf.js or a stage), and could not go on: ${describeError(err)}`);
  const { id, uri } = current;
  current = undefined;
  const outcome: JobOutcome = { kind: "processed", documentId: null, result: failedResult(uri, error) };
  process.send!({ type: "outcome", id, outcome, last: true } satisfies FromWorker, () => process.exit(1));
}
process.on("uncaughtException", failInFlight);
// Heard as itself, the rejection says what pdf.js threw: Node would otherwise wrap a reason
// that is not an Error with a stack of its own (pdf.js's FormatError) in a message of its own.
process.on("unhandledRejection", failInFlight);

// Every pipeline's first stage reads PDFs: pdf.js (~0.3 s to import) loads while the worker waits
// for its setup and first job, not after.
void loadPdfJs().catch(() => {});

process.on("message", (message: ToWorker) => {
  if (message.type === "init") {
    buildWorkerComponents(message.setup, (m) => send({ type: "warn", message: m })).then(
      (components) => {
        built = { setup: message.setup, ...components };
        send({ type: "ready" });
      },
      (err: unknown) => send({ type: "init_failed", message: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  const { setup, source, stages, chunks } = built!;
  const { id } = message;
  let lastProgress = Date.now();
  const onPage = (pages: number) => {
    if (Date.now() - lastProgress < PROGRESS_MS) return;
    lastProgress = Date.now();
    send({ type: "progress", id, pages });
  };
  const parts = { send: (part: ResultPart) => send({ type: "records", id, part }), chunks };
  current = { id, uri: message.job.item.uri };
  void processJob(message.job, source, stages, setup.limits, setup.needs, onPage, parts).then(async (outcome) => {
    // A promise rejected with no one listening is reported only once the round of promise
    // callbacks it fell in is over, which can be after the document's last one: wait a turn of
    // the event loop, so that it fails its own document, not the next one or a worker between jobs.
    await setImmediate();
    if (current?.id !== id) return;
    current = undefined;
    send({ type: "outcome", id, outcome });
    // pdf.js's compiled code for the next worker's start, once (a no-op after that, or when it
    // came from the cache); `extract` of one file ends as soon as it has the result.
    finishEvenWithoutParent(saveCodeCaches);
  });
});
