/**
 * `pagestream worker`: one machine's share of a distributed run. It reads the same pipeline
 * file as the coordinator (the stages, their options and the limits must be the same: jobs of
 * another identity are refused), builds the same sandbox as a local run and takes documents from
 * the queue until SIGINT / SIGTERM (a second signal stops at once; its jobs in flight go back
 * to the queue when their locks lapse).
 *
 * Exit codes: 0 stopped by a signal after finishing its documents; 2 bad configuration, or
 * refused the run's jobs (another pipeline identity); 1 Redis unreachable at start, or lost
 * for longer than queue.reconnect_seconds.
 */
import { availableParallelism } from "node:os";
import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import { checkEnvironment, formatEnvironmentIssue } from "../pipeline/environment-check.js";
import { pipelineIdentity } from "../run/identity.js";
import { chooseQueue } from "../run/queue/queue-setting.js";
import { RunRefused } from "../run/run-refused.js";
import { workerSetup } from "../run/worker-setup.js";
import { EXIT } from "../exit-codes.js";
import { createLogger, type LogFormat, type LogLevel } from "./logger.js";
import { StatusLine } from "./status-line.js";

export interface WorkerFlags {
  queue?: string;
  concurrency?: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

export async function workerCommand(path: string, flags: WorkerFlags): Promise<number> {
  const logger = createLogger(flags.logLevel, flags.logFormat, new StatusLine(process.stderr, false));
  const loaded = await loadPipelineFile(path);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
    return EXIT.usage;
  }
  const { config } = loaded;
  const chosen = chooseQueue(config.settings.queue, flags.queue);
  if (!chosen.ok || !chosen.queue) {
    process.stderr.write(`pagestream: ${chosen.ok ? "a worker needs a queue: give --queue redis://host:6379, or queue: in the pipeline file" : chosen.problem}\n`);
    return EXIT.usage;
  }
  const { address, options } = chosen.queue;
  const warn = (message: string) => logger.warn(message);
  // What the stages need from this machine (a program, a language pack), before any job is taken.
  const missing = await checkEnvironment(config, { baseDir: config.baseDir, warn });
  if (missing.length) {
    process.stderr.write(`pagestream: ${missing.map((issue) => formatEnvironmentIssue(issue, path)).join("; ")}\n`);
    return EXIT.usage;
  }
  const [{ checkReachable }, { runQueueWorker }, { queueIdentity }] = await Promise.all([
    import("../run/queue/redis-connection.js"),
    import("../run/queue/queue-worker.js"),
    import("../run/queue/queue-job.js"),
  ]);
  try {
    await checkReachable(address);
  } catch (err) {
    process.stderr.write(`pagestream: ${(err as Error).message}\n`);
    return EXIT.fatal;
  }

  const stop = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      logger.error(`${signal} again: stopping now; the documents in flight go back to the queue when their locks lapse`);
      process.exit(EXIT.fatal);
    }
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const setup = workerSetup(config);
  const { settings } = config;
  try {
    const done = await runQueueWorker({
      address,
      queue: options,
      setup,
      identity: queueIdentity(await pipelineIdentity(config), setup.needs),
      concurrency: flags.concurrency ?? settings.concurrency ?? availableParallelism(),
      timeoutSeconds: settings.timeout_seconds,
      maxWorkerMemoryMb: settings.max_worker_memory_mb,
      stop: stop.signal,
      shutdownSeconds: settings.shutdown_timeout_seconds,
      log: { info: (m) => logger.info(m), warn },
    });
    logger.info(`worker stopped: ${done.documents} document(s), ${done.pages} pages`);
    return EXIT.ok;
  } catch (err) {
    process.stderr.write(`pagestream: ${(err as Error).message}\n`);
    return err instanceof RunRefused ? EXIT.usage : EXIT.fatal;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
