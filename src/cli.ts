#!/usr/bin/env node
/**
 * The command line. Only commander is loaded up front: each command imports its implementation
 * when it runs, so `pagestream --help` never loads pdf.js.
 *
 * Exit codes: 0 all documents ok; 3 finished, with failed documents; 2 bad configuration or
 * usage; 1 fatal error; 130 / 143 a run stopped by SIGINT / SIGTERM.
 */
import { enableCompileCache } from "./compile-cache.js";

enableCompileCache();

// `extract` forks its worker first, before anything else is loaded (commander and the command
// line's modules are imported below, after the fork): see early-extraction-worker.ts.
const earlyWorker = process.argv[2] === "extract" ? (await import("./cli/early-extraction-worker.js")).forkEarlyWorker(process.argv.slice(3)) : undefined;
const [{ Command, InvalidArgumentError, Option }, { EXIT }, { PACKAGE_VERSION }] = await Promise.all([import("commander"), import("./exit-codes.js"), import("./package-files.js")]);

const program = new Command();
program
  .name("pagestream")
  .description("PDF text ingestion: extract, clean and store the text of PDFs, on this machine.")
  .version(PACKAGE_VERSION)
  .showHelpAfterError()
  .exitOverride((err) => {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") process.exit(EXIT.ok);
    process.exit(EXIT.usage);
  });

program
  .command("init")
  .description("Write a commented pipeline.yaml that reads the PDFs under a folder into chunks (out/chunks.jsonl) and a searchable archive (out/archive.sqlite); then `pagestream run`.")
  .argument("<folder>", "the folder that holds the PDFs (read recursively; it must not hold the pipeline file's folder)")
  .option("--pipeline <file>", "the pipeline file to write", "pipeline.yaml")
  .option("--force", "replace the pipeline file if it exists")
  .action(async (folder: string, opts: import("./cli/init-command.js").InitFlags) => {
    const { initCommand } = await import("./cli/init-command.js");
    process.exitCode = await initCommand(folder, opts);
  });

program
  .command("run")
  .description("Run a pipeline: read the source, run the stages, write the sinks. Skips what an earlier run did; see the run summary in the run folder.")
  .argument("[pipeline]", "pipeline file", "pipeline.yaml")
  .option("--watch", "keep running: ingest files as they are added, replaced or deleted (folder source), until SIGINT/SIGTERM")
  .option("--reprocess", "process every document again, changed or not (the run state is kept; the sinks get each document's new version)")
  .addOption(new Option("--progress <when>", "a live progress line on stderr: auto (on a terminal, not in CI), always, or never (a log line every --progress-every documents instead)").choices(["auto", "always", "never"]).default("auto"))
  .option("--progress-every <n>", "documents between progress log lines when there is no live line", positiveInt, 100)
  .addOption(new Option("--log-level <level>", "least severe log records to print").choices(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"))
  .addOption(new Option("--log-format <format>", "text lines (pagestream: …), or json: one pino record per line, for log collectors").choices(["text", "json"]).default("text"))
  .option("--queue <url>", "coordinate a distributed run: documents go to `pagestream worker`s through this Redis (redis://host:6379, rediss:// for TLS; overrides queue.url)")
  .action(async (pipeline: string, opts: import("./cli/run-command.js").RunFlags) => {
    const { runCommand } = await import("./cli/run-command.js");
    process.exitCode = await runCommand(pipeline, opts);
  });

program
  .command("worker")
  .description("Process the documents of a distributed run: take jobs from the queue a `pagestream run --queue` coordinator fills, in the same sandbox as a local run, until SIGINT/SIGTERM.")
  .argument("[pipeline]", "pipeline file (the coordinator's: the same stages, options and limits)", "pipeline.yaml")
  .option("--queue <url>", "the coordinator's Redis (redis://host:6379, rediss:// for TLS; overrides queue.url)")
  .option("--concurrency <n>", "documents at once, each in an extraction process of its own (default: the pipeline's concurrency, else one per CPU core)", positiveInt)
  .addOption(new Option("--log-level <level>", "least severe log records to print").choices(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"))
  .addOption(new Option("--log-format <format>", "text lines (pagestream: …), or json: one pino record per line, for log collectors").choices(["text", "json"]).default("text"))
  .action(async (pipeline: string, opts: import("./cli/worker-command.js").WorkerFlags) => {
    const { workerCommand } = await import("./cli/worker-command.js");
    process.exitCode = await workerCommand(pipeline, opts);
  });

program
  .command("status")
  .description("Show a distributed run's fleet: jobs waiting, active, done and failed, the coordinator, the workers seen, pages/s.")
  .argument("[pipeline]", "pipeline file, for its queue settings (optional)", "pipeline.yaml")
  .option("--queue <url>", "the queue's Redis (redis://host:6379, rediss:// for TLS; overrides queue.url)")
  .option("--json", "print the status as JSON")
  .action(async (pipeline: string, opts: import("./cli/status-command.js").StatusFlags) => {
    const { statusCommand } = await import("./cli/status-command.js");
    process.exitCode = await statusCommand(pipeline, opts);
  });

program
  .command("extract")
  .description("Print the text of PDFs, cleaned as the default pipeline would (like pdftotext); several files and folders in one call, through one worker.")
  .argument("<pdf...>", "PDF files, or folders: every *.pdf under one (in name order)")
  .addOption(new Option("--mode <mode>", "reflow joins paragraph lines; preserve keeps every line").choices(["reflow", "preserve"]).default("reflow"))
  .option("--pages <range>", 'pages to extract, e.g. "2-4" or "1,3,7-"')
  .option("--markers", 'label every page ("--- Page N ---"; in Markdown "<!-- page N -->"), empty pages too')
  .addOption(
    new Option("--format <format>", "text; markdown (headings, lists, code and tables marked up); json with the page records and the tables' cells; or csv: every table, one blank line between")
      .choices(["text", "markdown", "json", "csv"])
      .default("text"),
  )
  .option("--out-dir <dir>", "write each PDF's output to <dir>/<name>.txt (.md, .json, .csv), folders' subfolders kept; nothing on stdout")
  .option("--tables <dir>", "also write each table as a CSV file into this folder (<name>-p<page>-t<n>.csv)")
  .option("--password <password>", "password for an encrypted PDF", undefined)
  .option("--no-strip-furniture", "keep running headers, footers and page numbers")
  .option("--no-dehyphenate", "leave words broken at line ends as printed")
  .option("--ocr", "read pages without selectable text (scans) with Tesseract 5 (Debian tesseract-ocr)")
  .option("--ocr-languages <codes>", 'Tesseract languages for --ocr, e.g. "eng,deu" (default eng; implies --ocr)')
  .option("--timeout-seconds <s>", "longest the extraction may take for each 1,000 pages read, as timeout_seconds in a run (default 300)", positiveNumber)
  .option("--max-worker-memory-mb <n>", "most memory the extraction may use, as max_worker_memory_mb in a run (default 1024)", positiveInt)
  .option("--max-pages <n>", "most pages a file may have, as max_pages in a run (default 20000)", positiveInt)
  .option("--max-file-bytes <n>", "largest file to read, as max_file_bytes in a run (default 256 MiB, or what the memory cap holds)", positiveInt)
  .action(async (pdfs: string[], opts: import("./cli/extract-command.js").ExtractFlags) => {
    const [{ extractCommand }, { exitOnceWritten }] = await Promise.all([import("./cli/extract-command.js"), import("./cli/exit-once-written.js")]);
    exitOnceWritten(await extractCommand(pdfs, opts, earlyWorker));
  });

program
  .command("validate")
  .description("Check a pipeline file and print every problem with its line and column.")
  .argument("[pipeline]", "pipeline file", "pipeline.yaml")
  .option("--env", "also check what the pipeline will use, changing nothing: the source folder can be read (or the bucket listed), the sinks' files and the run folder can be written, the queue's Redis answers")
  .action(async (pipeline: string, opts: import("./cli/validate-command.js").ValidateFlags) => {
    const { validateCommand } = await import("./cli/validate-command.js");
    process.exitCode = await validateCommand(pipeline, opts);
  });

program
  .command("search")
  .description("Search an archive written by the sqlite sink: best chunks first (bm25), with pages and a snippet.")
  .argument("<query>", 'words (all must match), "a phrase" in quotes, a prefix* (3+ letters); OR, NOT and (groups) in capitals')
  .option("--db <file>", "the archive (default: the sqlite sink of --pipeline, or of ./pipeline.yaml, else out/archive.sqlite)")
  .option("--pipeline <file>", "the pipeline whose sqlite sink is the archive")
  .option("--limit <n>", "most hits to show", positiveInt, 10)
  .option("--document <id>", "only this document: its sha256 (or 8+ leading hex digits) or its path")
  .option("--path <prefix>", "only documents whose path starts with this")
  .option("--substring", "find the query as a literal substring (needs `trigram: true` on the sink)")
  .option("--fts", "the query in SQLite FTS5's own syntax: NEAR(a b, 5), column filters (title: …), ^initial tokens")
  .addOption(new Option("--source <source>", "only text read by OCR from page images (ocr), or only the PDFs' own text (text)").choices(["ocr", "text"]))
  .option("--json", "print the hits as JSON")
  .action(async (query: string, opts: import("./cli/search-command.js").SearchFlags) => {
    const { searchCommand } = await import("./cli/search-command.js");
    process.exitCode = await searchCommand(query, opts);
  });

program
  .command("export")
  .description(
    "Print the live records of the pipeline's jsonl sink — each document once, in its last version, no tombstones — as JSONL, up to what the last run committed. With --db, or for a pipeline without a jsonl sink, the same from its archive.",
  )
  .argument("[pipeline]", "pipeline file (default: pipeline.yaml)")
  .option("--db <file>", "export from this archive (default without a jsonl sink: the pipeline's sqlite sink, else out/archive.sqlite)")
  .addOption(new Option("--records <records>", "chunks, pages, or documents (the document records of a chunk file); default: what the pipeline's first jsonl sink writes, chunks from an archive").choices(["chunks", "pages", "documents"]))
  .addOption(new Option("--shape <shape>", "lay chunks out for a loader: flat { id, text, metadata }, langchain { pageContent, metadata, id } (LangChain.js), langchain_python { page_content, metadata, id }, llamaindex { id_, text, metadata, excluded…MetadataKeys }; default: the sink's shape").choices(["flat", "langchain", "langchain_python", "llamaindex"]))
  .option("--stable-keys", "every metadata key on every chunk line, an empty one as \"\" or [], for typed stores (LanceDB); default: as the sink writes (empty ones left out, which Chroma needs)")
  .option("--out <file>", "write this file (whole, or not at all) instead of stdout")
  .action(async (pipeline: string | undefined, opts: import("./cli/export-command.js").ExportFlags) => {
    const { exportCommand } = await import("./cli/export-command.js");
    process.exitCode = await exportCommand(pipeline, opts);
  });

program
  .command("serve")
  .description("Serve a web page over the archive on this machine: search, read each page beside the original, see what extraction did, drop a PDF to extract it.")
  .option("--db <file>", "the archive (default: the sqlite sink of --pipeline, or of ./pipeline.yaml, else out/archive.sqlite)")
  .option("--pipeline <file>", "the pipeline that writes the archive: its source holds the originals, its stages take a dropped PDF and its folder the file added (default: the pipeline the archive recorded, while it still writes it)")
  .option("--port <n>", "port to listen on (0: any free one)", port, 8080)
  .option("--host <address>", "address to listen on; anything but loopback lets other machines in, needs the token on every request, and warns", "127.0.0.1")
  .option("--token <token>", "require this token on every request (default: $PAGESTREAM_TOKEN; else one is made, needed to add files and, off loopback, for everything); the address printed carries it")
  .option("--max-upload-mb <n>", "largest PDF the page may drop, in MiB (at most the pipeline's max_file_bytes)", positiveInt, 100)
  .option("--request-timeout-seconds <n>", "longest a request may take to arrive, headers and body (an upload included)", positiveInt, 120)
  .action(async (opts: import("./cli/serve-command.js").ServeFlags) => {
    const { serveCommand } = await import("./cli/serve-command.js");
    process.exitCode = await serveCommand(opts);
  });

program
  .command("mcp")
  .description("Serve the archive to an AI assistant over MCP (Model Context Protocol) on stdin/stdout, read-only: tools search, read_document and list_documents, and each document as a resource. For a desktop client's mcpServers config; runs until the client closes stdin.")
  .option("--db <file>", "the archive (default: the sqlite sink of --pipeline, or of ./pipeline.yaml, else out/archive.sqlite)")
  .option("--pipeline <file>", "the pipeline whose sqlite sink is the archive")
  .action(async (opts: import("./cli/mcp-command.js").McpFlags) => {
    const { mcpCommand } = await import("./cli/mcp-command.js");
    process.exitCode = await mcpCommand(opts);
  });

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number above 0");
  return n;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("expected a port number, 0 to 65535");
  return n;
}

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`pagestream: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(EXIT.fatal);
});
