/**
 * `pagestream serve`: the web page over an archive (see src/serve/). Reads the pipeline file like
 * `run` does, for where the originals are and which stages a dropped PDF goes through; serves
 * until SIGINT or SIGTERM, then exits 0.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { formatIssue, loadPipelineFile, type PipelineConfig } from "../pipeline/config.js";
import { EXIT } from "../exit-codes.js";

/** How long a stop waits for connections and the extraction worker to close. */
const STOP_GRACE_MS = 5_000;

export interface ServeFlags {
  db?: string;
  port: number;
  host: string;
  token?: string;
  pipeline?: string;
  maxUploadMb: number;
}

export async function serveCommand(flags: ServeFlags): Promise<number> {
  const say = (message: string) => process.stderr.write(`pagestream: ${message}\n`);
  const pipelinePath = flags.pipeline ?? "pipeline.yaml";
  let config: PipelineConfig | undefined;
  if (existsSync(pipelinePath)) {
    const loaded = await loadPipelineFile(pipelinePath);
    if (!loaded.ok) {
      for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: pipelinePath }) + "\n");
      return EXIT.usage;
    }
    config = loaded.config;
  } else if (flags.pipeline !== undefined) {
    say(`${pipelinePath}: the file does not exist`);
    return EXIT.usage;
  } else {
    say(`no ${pipelinePath} here: the page shows archived text without the original pages, and a dropped PDF goes through the default stages`);
  }
  const sink = config?.sinks.find((s) => s.type === "sqlite");
  const db = flags.db ?? (sink ? resolve(config!.baseDir, sink.options.path as string) : "out/archive.sqlite");
  if (!existsSync(db)) {
    say(`no archive at ${db} (run a pipeline with a sqlite sink first, or give --db)`);
    return EXIT.usage;
  }
  const token = flags.token ?? (process.env.PAGESTREAM_TOKEN || undefined);

  const { ArchiveReader } = await import("../serve/archive-reader.js");
  const { Assets } = await import("../serve/assets.js");
  const { sourceAccess } = await import("../serve/originals.js");
  const { UploadExtraction } = await import("../serve/upload-extraction.js");
  const { uploadSaver } = await import("../serve/upload-saving.js");
  const { createServer } = await import("../serve/server.js");
  const { isLoopback } = await import("../serve/access-control.js");

  let archive;
  try {
    archive = ArchiveReader.open(db);
  } catch (err) {
    say((err as Error).message);
    return EXIT.usage;
  }
  const access = sourceAccess(config, say);
  const extraction = await UploadExtraction.create(config, process.cwd(), say);
  const maxUploadBytes = Math.min(flags.maxUploadMb * 1048576, extraction.limits.max_file_bytes);
  let port = flags.port;
  const app = await createServer({
    archiveName: flags.db ?? db,
    archive,
    assets: await Assets.load(),
    access,
    extraction,
    saver: uploadSaver(config, access?.root),
    maxUploadBytes,
    maxFileBytes: extraction.limits.max_file_bytes,
    host: flags.host,
    port: () => port,
    ...(token ? { token } : {}),
    logError: say,
  });
  try {
    await app.listen({ host: flags.host, port: flags.port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    say(code === "EADDRINUSE" ? `port ${flags.port} on ${flags.host} is in use: give another with --port` : `cannot listen on ${flags.host}:${flags.port}: ${(err as Error).message}`);
    await extraction.close();
    archive.close();
    return EXIT.usage;
  }
  const address = app.server.address();
  if (address && typeof address === "object") port = address.port;
  if (!isLoopback(flags.host)) {
    say(`listening on ${flags.host}, not only this machine: anyone who can reach it can read the archive${token ? "" : " — set --token (or PAGESTREAM_TOKEN) to require one"}`);
  }
  const shown = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  process.stdout.write(`pagestream: serving ${flags.db ?? db} at http://${shown}:${port}/${token ? `?token=${encodeURIComponent(token)}` : ""}\n`);

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  // Stopping waits for the connections and the extraction worker to close, but not for ever:
  // what is still pending after STOP_GRACE_MS is named, and the process exits all the same.
  const pending = new Set(["the HTTP server", "the extraction worker"]);
  const forced = setTimeout(() => {
    say(`stopping took longer than ${STOP_GRACE_MS / 1000} s (still waiting for ${[...pending].join(" and ")}): exiting now`);
    process.exit(EXIT.ok);
  }, STOP_GRACE_MS).unref();
  await Promise.all([app.close().finally(() => pending.delete("the HTTP server")), extraction.close().finally(() => pending.delete("the extraction worker"))]);
  clearTimeout(forced);
  archive.close();
  return EXIT.ok;
}
