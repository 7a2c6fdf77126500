/**
 * `pagestream run`: the pipeline as a nightly batch (or, with --watch, as a service), with
 * progress and logs on stderr, a run summary and the list of failures beside the outputs.
 *
 * SIGINT / SIGTERM: no new documents are taken, those in flight get shutdown_timeout_seconds
 * to finish, what is done is committed, the summary written, and the exit code is 130 / 143.
 * A second signal stops at once: the documents in flight are abandoned (the next run does
 * them), what was delivered is committed and the summary written; a third leaves immediately.
 *
 * With a queue (`--queue URL` or `queue:` in the file) the run is the coordinator of a
 * distributed run: the same run, whose documents go to `pagestream worker`s through Redis.
 */
import { join } from "node:path";
import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import { emptySummary } from "../run/delivery.js";
import { RunRefused } from "../run/run-refused.js";
import { FAILED_FILE } from "../run/run-report.js";
import { chooseQueue } from "../run/queue/queue-setting.js";
import { runPipeline, type RunOptions, type StopReason } from "../run/run-pipeline.js";
import type { RunSummary } from "../core/plugin.js";
import { EXIT, SIGNAL_EXIT } from "../exit-codes.js";
import { createLogger, type LogFormat, type LogLevel } from "./logger.js";
import { Progress } from "./progress.js";
import { StatusLine } from "./status-line.js";

/** After a second signal, how long the run may take to commit and report before the process just leaves. */
const HARD_EXIT_MS = 5_000;

export interface RunFlags {
  watch?: boolean;
  reprocess?: boolean;
  progress: "auto" | "always" | "never";
  progressEvery: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** A Redis URL: the run is the coordinator of a distributed run (see `pagestream worker`). */
  queue?: string;
}

export async function runCommand(path: string, flags: RunFlags): Promise<number> {
  const terminal = process.stderr.isTTY === true && !process.env.CI;
  const status = new StatusLine(process.stderr, flags.progress === "always" || (flags.progress === "auto" && terminal));
  const logger = createLogger(flags.logLevel, flags.logFormat, status);
  const loaded = await loadPipelineFile(path);
  if (!loaded.ok) {
    // A log collector reads these as records too: each with where it is, as JSON.
    for (const issue of loaded.issues) {
      const text = formatIssue({ ...issue, file: path });
      if (flags.logFormat === "json") logger.error({ file: path, line: issue.line, col: issue.col, path: issue.path }, text);
      else process.stderr.write(text + "\n");
    }
    return EXIT.usage;
  }
  const { config } = loaded;
  const watch = flags.watch === true || config.source.options.watch === true;
  const warn = (message: string) => logger.warn(message);

  const live = emptySummary();
  const chosen = chooseQueue(config.settings.queue, flags.queue);
  if (!chosen.ok) {
    process.stderr.write(`pagestream: ${chosen.problem}\n`);
    return EXIT.usage;
  }
  let processor: RunOptions["processor"];
  if (chosen.queue) {
    const { address, options } = chosen.queue;
    // Before the run folder is touched: a Redis that does not answer stops the run here.
    const { checkReachable } = await import("../run/queue/redis-connection.js");
    try {
      await checkReachable(address);
    } catch (err) {
      process.stderr.write(`pagestream: ${(err as Error).message}\n`);
      return EXIT.fatal;
    }
    processor = async (setup, identity) => {
      const [{ QueueProcessor }, { queueIdentity }] = await Promise.all([import("../run/queue/queue-processor.js"), import("../run/queue/queue-job.js")]);
      const queue = await QueueProcessor.open({ address, queue: options, identity: queueIdentity(identity, setup.needs), pipelineFile: path, summary: live, warn });
      logger.info(`coordinator of the queue "${options.name}" at ${address.shown}: start workers with \`pagestream worker ${path} --queue …\``);
      return queue;
    };
  }

  const progress = new Progress(() => live, status, logger, flags.progressEvery);
  const stop = new AbortController();
  const stopNow = new AbortController();
  let signal: NodeJS.Signals | undefined;
  const onSignal = (received: NodeJS.Signals) => {
    if (signal && !stopNow.signal.aborted) {
      status.clear();
      logger.error(`${received} again: stopping now, without committing what is in flight`);
      // The documents in flight are abandoned (the next run does them); what was delivered is
      // committed and the summary written. Should that hang, the process leaves anyway.
      stopNow.abort();
      setTimeout(() => process.exit(SIGNAL_EXIT[signal!] ?? EXIT.fatal), HARD_EXIT_MS).unref();
      return;
    }
    if (signal) process.exit(SIGNAL_EXIT[signal] ?? EXIT.fatal);
    signal = received;
    stop.abort({ signal: received, exitCode: SIGNAL_EXIT[received] ?? EXIT.fatal } satisfies StopReason);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const redraw = status.live ? setInterval(() => progress.draw(), 1000).unref() : undefined;

  try {
    const { summary, exitCode, failing } = await runPipeline(config, { baseDir: config.baseDir, warn }, {
      pipelineFile: path,
      stop: stop.signal,
      stopNow: stopNow.signal,
      watch,
      reprocess: flags.reprocess === true,
      summary: live,
      ...(processor ? { processor } : {}),
      events: {
        onStarted({ source }) {
          source.count?.(stop.signal).then(
            (total) => progress.setTotal(total),
            () => {},
          );
        },
        onSkipped(item) {
          progress.done(item.size, false, item.uri);
        },
        onDocumentProgress(item, pages) {
          progress.pagesRead(item.uri, pages);
        },
        onResult(result, item, { change, watching }) {
          if (result.status === "failed") logger.warn({ uri: result.uri, code: result.error.code }, `${result.uri}: ${result.error.code}: ${result.error.message}`);
          else {
            // Watching, each file that comes in is news; in a batch, the summary counts them.
            const said = `${result.uri}: ${change} (${result.pages.length} page(s)${result.chunks.length ? `, ${result.chunks.length} chunk(s)` : ""})`;
            if (watching) logger.info({ uri: result.uri, change }, said);
            else logger.debug({ uri: result.uri, change }, said);
          }
          for (const w of result.warnings) logger.info({ uri: result.uri, code: w.code }, `${result.uri}: ${w.message}`);
          progress.done(item.size, true, item.uri);
        },
        onRemoved(uri) {
          logger.info({ uri }, `${uri}: gone from the source, pruned`);
        },
        onFiltered({ uri, reason }) {
          logger.debug({ uri, reason }, `${uri}: skipped by the source (${reason})`);
        },
        onWatching(sofar) {
          progress.stop();
          logger.info({ summary: sofar }, `listing done (${summaryLine(sofar)}); watching ${config.source.type} source for changes`);
        },
        onStopping(inFlight) {
          status.clear();
          logger.warn(`${signal ?? "stop"}: taking no new documents; ${inFlight} in flight get up to ${config.settings.shutdown_timeout_seconds} s to finish (send it again to stop at once)`);
        },
        warn,
      },
    });
    progress.stop();
    logger.info({ summary }, summaryLine(summary));
    // Exit 3 for failures this run did not see: say which, or the code is a riddle.
    const earlier = failing - summary.failed;
    if (exitCode === EXIT.failedDocuments && earlier > 0) {
      logger.warn(
        { failing },
        `${earlier} document(s) failed in an earlier run and are unchanged since, so they were not tried again (listed in ${join(config.settings.run_folder, FAILED_FILE)}): fix or remove them, or run with --reprocess to try them again`,
      );
    }
    return exitCode;
  } catch (err) {
    progress.stop();
    if (err instanceof RunRefused) {
      if (flags.logFormat === "json") logger.error(err.message);
      else process.stderr.write(`pagestream: ${err.message}\n`);
      return EXIT.usage;
    }
    // With --log-format json, a run that stops is a record like the rest (the text form says it as the CLI says any error).
    if (flags.logFormat === "json") {
      logger.fatal({ err }, err instanceof Error ? err.message : String(err));
      return EXIT.fatal;
    }
    throw err;
  } finally {
    clearInterval(redraw);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** The run in one sentence: "12 document(s) ingested (340 pages), 1 failed (damaged 1), 3 skipped unchanged, … in 4.2 s". */
export function summaryLine(s: RunSummary): string {
  const failures = Object.entries(s.failedByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  return (
    `${s.ok} document(s) ingested (${s.pages} pages), ${s.failed} failed${failures ? ` (${failures})` : ""}, ${s.skipped} skipped unchanged` +
    `${s.removed ? `, ${s.removed} pruned` : ""}${s.filtered ? `, ${s.filtered} passed over by the source (${Object.entries(s.filteredBy).map(([r, n]) => `${r} ${n}`).join(", ")})` : ""}${s.scanDocuments ? `, ${s.scanDocuments} scan(s)` : ""}, ${s.chunks} chunks, in ${s.seconds.toFixed(1)} s` +
    `${s.seconds > 0 && s.pages > 0 ? ` (${(s.pages / s.seconds).toFixed(1)} pages/s)` : ""}${s.interrupted ? "; interrupted" : ""}`
  );
}
