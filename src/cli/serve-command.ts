/**
 * `pagestream serve`: the web page over an archive (see src/serve/). The archive, its pipeline
 * (the stages a dropped PDF goes through, the folder "Add to the archive" saves into) and the
 * source its originals are read from are chosen as for every command that reads an archive
 * (archive-choice.ts) and named at start; serves until SIGINT or SIGTERM, then exits 0.
 *
 * Without --token (or PAGESTREAM_TOKEN) the server makes one and prints it in its address, as
 * Jupyter does: on loopback it guards adding files to the source folder, beyond loopback every
 * request (access-control.ts).
 */
import { chooseArchive } from "./archive-choice.js";
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
  requestTimeoutSeconds: number;
}

export async function serveCommand(flags: ServeFlags): Promise<number> {
  const say = (message: string) => process.stderr.write(`pagestream: ${message}\n`);
  const chosen = await chooseArchive(flags);
  if (!chosen.ok) {
    process.stderr.write(chosen.text);
    return EXIT.usage;
  }
  const { file: db, shown, pipeline, source } = chosen.choice;
  const config = pipeline?.config;
  const givenToken = flags.token ?? (process.env.PAGESTREAM_TOKEN || undefined);

  const { ArchiveReader } = await import("../serve/archive-reader.js");
  const { Assets } = await import("../serve/assets.js");
  const { sourceAccess } = await import("../serve/originals.js");
  const { UploadExtraction } = await import("../serve/upload-extraction.js");
  const { uploadSaver } = await import("../serve/upload-saving.js");
  const { createServer } = await import("../serve/server.js");
  const { generatedToken, isLoopback, tokenRule } = await import("../serve/access-control.js");
  const token = givenToken ?? generatedToken();

  let archive;
  try {
    archive = ArchiveReader.open(db, shown);
  } catch (err) {
    say((err as Error).message);
    return EXIT.usage;
  }
  for (const sentence of chosen.choice.says) say(sentence);
  const access = sourceAccess(source, say);
  const extraction = await UploadExtraction.create(config, process.cwd(), say);
  const maxUploadBytes = Math.min(flags.maxUploadMb * 1048576, extraction.limits.max_file_bytes);
  let port = flags.port;
  const app = await createServer({
    archiveName: shown,
    archive,
    assets: await Assets.load(),
    access,
    extraction,
    saver: uploadSaver(config, access?.root),
    maxUploadBytes,
    maxFileBytes: extraction.limits.max_file_bytes,
    host: flags.host,
    port: () => port,
    token,
    tokenRule: tokenRule(flags.host, givenToken !== undefined),
    requestTimeoutSeconds: flags.requestTimeoutSeconds,
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
    say(`listening on ${flags.host}, not only this machine: every request needs the token${givenToken ? "" : " made for this start (give --token or PAGESTREAM_TOKEN to choose one)"}, and anyone who has it can read the archive`);
  }
  const host = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  process.stdout.write(`pagestream: serving ${shown} at http://${host}:${port}/?token=${encodeURIComponent(token)}\n`);

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
