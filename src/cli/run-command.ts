/**
 * `pagestream run`: the pipeline as a nightly batch (or, with --watch, as a service), with
 * progress and logs on stderr, a run summary and the list of failures beside the outputs.
 *
 * SIGINT / SIGTERM: no new documents are taken, those in flight get shutdown_timeout_seconds
 * to finish, what is done is committed, the summary written, and the exit code is 130 / 143.
 * A second signal stops at once: nothing more is committed, and the next run starts from the
 * last checkpoint.
 */
import { resolve } from "node:path";
import { buildPipeline } from "../run/build-pipeline.js";
import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import type { RunSummary } from "../core/plugin.js";
import { writeRunReport } from "../run/run-report.js";
import { emptySummary, runPipeline } from "../run/runner.js";
import { EXIT } from "./exit-codes.js";
import { createLogger, type LogFormat, type LogLevel } from "./logger.js";
import { Progress } from "./progress.js";
import { StatusLine } from "./status-line.js";

export interface RunFlags {
  watch?: boolean;
  progress: "auto" | "always" | "never";
  progressEvery: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export async function runCommand(path: string, flags: RunFlags): Promise<number> {
  const terminal = process.stderr.isTTY === true && !process.env.CI;
  const status = new StatusLine(process.stderr, flags.progress === "always" || (flags.progress === "auto" && terminal));
  const logger = createLogger(flags.logLevel, flags.logFormat, status);
  const loaded = await loadPipelineFile(path);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
    return EXIT.usage;
  }
  const { config } = loaded;
  const watch = flags.watch === true || config.source.options.watch === true;
  const warn = (message: string) => logger.warn(message);
  const startedAt = new Date();
  const pipeline = await buildPipeline(config, { baseDir: config.baseDir, warn });
  if (watch && !pipeline.source.watch) {
    await pipeline.processor.close();
    pipeline.state.close();
    process.stderr.write(`pagestream: the ${config.source.type} source cannot watch for changes\n`);
    return EXIT.usage;
  }

  const live = emptySummary();
  const progress = new Progress(() => live, status, logger, flags.progressEvery);
  const stop = new AbortController();
  let signal: NodeJS.Signals | undefined;
  const onSignal = (received: NodeJS.Signals) => {
    if (signal) {
      status.clear();
      logger.error(`${received} again: stopping now, without committing what is in flight`);
      pipeline.processor.kill();
      process.exit(SIGNAL_EXIT[signal] ?? EXIT.fatal);
    }
    signal = received;
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const redraw = status.live ? setInterval(() => progress.draw(), 1000).unref() : undefined;
  if (pipeline.source.count) {
    pipeline.source.count(stop.signal).then(
      (total) => progress.setTotal(total),
      () => {},
    );
  }

  let summary: RunSummary;
  try {
    summary = await runPipeline(pipeline, {
      stop: stop.signal,
      watch,
      events: {
        onSkipped(item) {
          progress.done(item.size, false);
        },
        onResult(result, item) {
          if (result.status === "failed") logger.warn({ uri: result.uri, code: result.error.code }, `${result.uri}: ${result.error.code}: ${result.error.message}`);
          for (const w of result.warnings) logger.info({ uri: result.uri, code: w.code }, `${result.uri}: ${w.message}`);
          progress.done(item.size, true);
        },
        onRemoved(uri) {
          logger.info({ uri }, `${uri}: gone from the source, pruned`);
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
      summary: live,
    });
  } catch (err) {
    progress.stop();
    pipeline.state.close();
    throw err;
  } finally {
    clearInterval(redraw);
  }
  progress.stop();
  await pipeline.processor.close();
  const exitCode = signal ? SIGNAL_EXIT[signal]! : summary.failed > 0 ? EXIT.failedDocuments : EXIT.ok;
  const pool = pipeline.processor;
  const report = {
    pipeline: resolve(path),
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    exit_code: exitCode,
    ...(signal ? { signal } : {}),
    workers: pipeline.workers,
    workers_started: pool.started,
    summary,
    pages_per_second: summary.seconds > 0 ? Math.round((summary.pages / summary.seconds) * 10) / 10 : 0,
    peak_rss_mib: { main: Math.round(process.resourceUsage().maxRSS / 1024), worker: Math.round(pool.peakWorkerBytes / 1048576) },
  };
  pipeline.state.finishRun(report);
  await writeRunReport(resolve(config.baseDir, config.settings.run_folder), report, pipeline.state.failures());
  pipeline.state.close();
  logger.info({ summary: report }, summaryLine(summary));
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  return exitCode;
}

/** The run in one sentence: "12 document(s) ingested (340 pages), 1 failed (damaged 1), 3 skipped unchanged, … in 4.2 s". */
export function summaryLine(s: RunSummary): string {
  const failures = Object.entries(s.failedByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  return (
    `${s.ok} document(s) ingested (${s.pages} pages), ${s.failed} failed${failures ? ` (${failures})` : ""}, ${s.skipped} skipped unchanged` +
    `${s.removed ? `, ${s.removed} pruned` : ""}${s.scanDocuments ? `, ${s.scanDocuments} scan(s)` : ""}, ${s.chunks} chunks, in ${s.seconds.toFixed(1)} s` +
    `${s.seconds > 0 && s.pages > 0 ? ` (${(s.pages / s.seconds).toFixed(1)} pages/s)` : ""}${s.interrupted ? "; interrupted" : ""}`
  );
}
