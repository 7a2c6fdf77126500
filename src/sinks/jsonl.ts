import { basename, dirname, relative, resolve } from "node:path";
import { z } from "zod";
import { checkWritable, ensureFolder } from "../core/output-folder.js";
import { defineSink, type PreviousDelivery } from "../core/plugin.js";
import { CHUNK_SHAPES, chunkLine } from "./jsonl/chunk-shapes.js";
import { liveLines } from "./jsonl/live-lines.js";
import { documentLine, jsonlRecords, tombstone } from "./jsonl/record-lines.js";
import { replaceFile } from "./jsonl/replace-file.js";
import { isLogFileToken, LogFile, type LogFileToken } from "./log-file.js";

export { documentLine, jsonlRecords, tombstone } from "./jsonl/record-lines.js";

const options = z
  .strictObject({
    records: z
      .enum(["pages", "chunks"])
      .optional()
      .describe(
        "What each line holds. pages: a record per page, document error and warning. chunks: one chunk per line, ready for an embedding job or a vector store (needs a chunk stage); document records (status, errors, warnings) go to a `.documents.jsonl` file beside it. Default: chunks when the pipeline has a chunk stage, pages otherwise (`pagestream validate` says which).",
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("The file to write, relative to the pipeline file. Default: out/pages.jsonl, or out/chunks.jsonl for chunks."),
    mode: z
      .enum(["log", "snapshot"])
      .default("log")
      .describe(
        "log: the file is appended to run after run, a tombstone withdrawing each replaced or removed document (for consumers that follow it incrementally). snapshot: the file holds only the live records — each document once, no tombstones — replaced whole at the end of every run; the log it is made from is kept beside it (chunks.log.jsonl for chunks.jsonl).",
      ),
    shape: z
      .enum(CHUNK_SHAPES)
      .default("flat")
      .describe(
        "How a chunk line is laid out. flat: { id, document_id, chunk_index, text, metadata } (OpenAI Batch, Cohere, Qdrant, Pinecone, Chroma, LanceDB). langchain: { pageContent, metadata, id }, for LangChain.js's `new Document(line)`. langchain_python: { page_content, metadata, id }, for Python LangChain's `Document(**line)`. llamaindex: { id_, text, metadata, excludedEmbedMetadataKeys, excludedLlmMetadataKeys }, for LlamaIndex.TS's `new Document(line)`: the text alone is embedded, and the LLM sees path, title, pages and headings with it. chunk.schema.json describes every shape. Chunk records only.",
      ),
    // Optional without a default: a sink that does not set it keeps the key the run state knows it by.
    stable_keys: z
      .boolean()
      .optional()
      .describe(
        "Every metadata key on every chunk line, an empty one as \"\" or [] (boxes as \"[]\"), so a typed store (LanceDB, a SQL table) keeps the schema of its first load night after night. Off by default: Chroma refuses empty lists. Chunk records only.",
      ),
    include_lines: z
      .boolean()
      .default(false)
      .describe("Also write each page's lines with their runs and positions (larger files; for layout-aware consumers). Page records only."),
    prune: z
      .boolean()
      .default(false)
      .describe("When a document is gone from the source (deleted or moved), write a tombstone for it, so the file mirrors the source. Leave off when runs cover only part of the source."),
  });

export type JsonlOptions = z.output<typeof options>;

/** The checkpoint token: each log file's, by its name. */
export interface JsonlCheckpoint {
  files: Record<string, LogFileToken>;
}

/** The file a sink writes by default. */
export function defaultPath(records: "pages" | "chunks"): string {
  return records === "chunks" ? "out/chunks.jsonl" : "out/pages.jsonl";
}

/**
 * Where a sink's records go: `outputs` are the files consumers read; `logs` the append-only files
 * that are checkpointed (the same files in log mode; in snapshot mode the logs beside them).
 */
export function sinkFiles(opts: Pick<JsonlOptions, "records" | "path" | "mode">, baseDir: string): { outputs: string[]; logs: string[] } {
  const records = opts.records ?? "pages";
  const outputs = outputPaths(records, resolve(baseDir, opts.path ?? defaultPath(records)));
  return { outputs, logs: opts.mode === "snapshot" ? outputs.map(logPath) : outputs };
}

export default defineSink({
  type: "jsonl",
  // 2: empty lists are left out of chunk metadata, and records carry the document's `path`.
  version: 2,
  summary: "One JSON object per line — page records, or chunk records with their document records in a second file — as a log appended run after run (tombstones for replaced and removed documents), or as a snapshot of the live records.",
  options,
  examples: [
    { path: "out/pages.jsonl" },
    { path: "out/pages-with-geometry.jsonl", include_lines: true },
    { records: "chunks", path: "out/chunks.jsonl", prune: true },
    { records: "chunks", path: "out/langchain.jsonl", mode: "snapshot", shape: "langchain", prune: true },
    { records: "chunks", path: "out/lancedb.jsonl", mode: "snapshot", stable_keys: true, prune: true },
  ],
  needs: (opts) => ({ lines: opts.include_lines }),
  async probe(opts, context) {
    const { outputs, logs } = sinkFiles(opts, context.baseDir);
    const files = [...new Set([...outputs, ...logs])];
    for (const file of files) await checkWritable(file, "file", relative(context.baseDir, file));
    return `${files.map((f) => relative(context.baseDir, f)).join(", ")} can be written`;
  },
  writesFiles(opts, baseDir) {
    const { outputs, logs } = sinkFiles(opts, baseDir);
    return [...new Set([...outputs, ...logs])].map((path) => ({ path, option: "path" }));
  },
  settle(opts, pipeline) {
    const records = opts.records ?? (pipeline.chunks ? "chunks" : "pages");
    const problems = [];
    if (records === "chunks" && !pipeline.chunks) problems.push({ path: ["records"], message: "chunks need a chunk stage in the pipeline (- type: chunk), and there is none" });
    if (records === "chunks" && opts.include_lines) problems.push({ path: ["include_lines"], message: "applies to page records only (records: pages)" });
    if (records === "pages" && opts.shape !== "flat") problems.push({ path: ["shape"], message: "applies to chunk records only (records: chunks): page records have one shape" });
    if (records === "pages" && opts.stable_keys) problems.push({ path: ["stable_keys"], message: "applies to chunk records only (records: chunks): it is about chunk metadata" });
    const notes = opts.records ? [] : [`records: ${records} (${pipeline.chunks ? "the pipeline has a chunk stage; records: pages writes page records instead" : "there is no chunk stage"})`];
    return { options: { ...opts, records }, problems, notes };
  },
  async create(opts, context) {
    const { outputs, logs } = sinkFiles(opts, context.baseDir);
    await ensureFolder(dirname(outputs[0]!));
    const files = await openTogether(logs, context.checkpoint as JsonlCheckpoint | undefined);
    const [main, documents] = files as [LogFile, LogFile | undefined];
    let chunks = 0;
    let pagesWithText = 0;
    const tombstoneEverywhere = (uri: string, previous: PreviousDelivery, reason: "replaced" | "removed") =>
      Promise.all(files.map((f) => f.append([tombstone(uri, previous, reason)])));
    return {
      resumed: files[0]!.resumed,
      async write(result, previous) {
        const head = previous ? [tombstone(result.uri, previous, "replaced")] : [];
        if (!documents) return main.append([...head, ...jsonlRecords(result, opts.include_lines)]);
        const place = result.status === "ok" ? { title: result.document.title, path: result.path } : {};
        const chunkLines = result.status === "ok" ? result.chunks.map((c) => chunkLine(c, place, opts.shape, { stableKeys: opts.stable_keys })) : [];
        if (result.status === "ok") {
          chunks += result.chunks.length;
          pagesWithText += result.pages.filter((p) => !p.empty).length;
        }
        await main.append([...head, ...chunkLines]);
        await documents.append([...head, documentLine(result)]);
      },
      ...(opts.prune ? { remove: (uri: string, previous: PreviousDelivery) => tombstoneEverywhere(uri, previous, "removed").then(() => {}) } : {}),
      async checkpoint(): Promise<JsonlCheckpoint> {
        const tokens: Record<string, LogFileToken> = {};
        for (const f of files) tokens[basename(f.path)] = await f.checkpoint();
        return { files: tokens };
      },
      async close() {
        for (const f of files) await f.close();
        // The run's last checkpoint is recorded: the logs hold exactly what the run state says.
        if (opts.mode === "snapshot") for (const [i, output] of outputs.entries()) await replaceFile(output, liveLines(logs[i]!));
        if (documents && chunks === 0 && pagesWithText > 0) context.warn(`${basename(outputs[0]!)} has no chunks: the pipeline needs a chunk stage (- type: chunk) after extract`);
      },
      async abort() {
        for (const f of files) {
          await f.rollback().catch(() => {});
          await f.close().catch(() => {});
        }
      },
    };
  },
});

/** `out/chunks.jsonl` → `out/chunks.documents.jsonl`: the document records of a chunk file. */
export function documentsPath(chunksPath: string): string {
  return chunksPath.replace(/\.jsonl$/i, "") + ".documents.jsonl";
}

/** `out/chunks.jsonl` → `out/chunks.log.jsonl`: the log a snapshot file is compacted from. */
export function logPath(snapshotPath: string): string {
  return snapshotPath.replace(/\.jsonl$/i, "") + ".log.jsonl";
}

/** The file (or, for chunks, the two files) a sink's records go to: the ones consumers read. */
export function outputPaths(records: "pages" | "chunks", target: string): string[] {
  return records === "chunks" ? [target, documentsPath(target)] : [target];
}

/** The files of one sink resume together or start anew together, so they always describe the same documents. */
async function openTogether(paths: string[], checkpoint: JsonlCheckpoint | undefined): Promise<LogFile[]> {
  const token = (path: string) => {
    const t = checkpoint?.files?.[basename(path)];
    return isLogFileToken(t) ? t : undefined;
  };
  const files = await Promise.all(paths.map((p) => LogFile.open(p, token(p))));
  if (files.every((f) => f.resumed) || files.every((f) => !f.resumed)) return files;
  for (const f of files) await f.close();
  return Promise.all(paths.map((p) => LogFile.open(p, undefined)));
}
