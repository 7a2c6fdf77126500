import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { isStorageError, outputError } from "../../core/output-error.js";
import { checkWritable, ensureFolder } from "../../core/output-folder.js";
import { defineSink } from "../../core/plugin.js";
import { prepareArchive, tableExists } from "./archive-schema.js";
import { ArchiveRefused, checkFullTextTables, hardenConnection } from "./fts-tables-check.js";
import { ArchiveWriter } from "./archive-writer.js";
import { describeSource, recordOrigin } from "./archive-origin.js";
import { ARCHIVE_SCHEMA_VERSION, documentRows } from "./document-rows.js";
import { importAtRunTime } from "../../runtime-import.js";

const options = z.strictObject({
  path: z.string().min(1).default("out/archive.sqlite").describe("The SQLite file to write (created when missing), relative to the pipeline file."),
  stemming: z
    .enum(["none", "porter"])
    .default("none")
    .describe("porter: English words also match their other forms in search (connect, connected, connection). Changing it rebuilds the full-text index."),
  trigram: z
    .boolean()
    .default(false)
    .describe("Also keep a trigram index of chunk text, for `pagestream search --substring` (any part of a word: a reference number, a code). Makes the archive about twice as large."),
  prune: z
    .boolean()
    .default(false)
    .describe("Remove the documents gone from the source (deleted or moved) once a run has listed it to the end, so the archive mirrors the source. Leave off when runs cover only part of the source."),
});

/**
 * A batch of whole documents is committed once it holds this many rows, or has been open this
 * long. With the full-text index, a commit per chunk is about three times slower than batches
 * (5,000 chunks: 2.4 s against 0.9 s in WAL mode); the time limit bounds what a crash can lose
 * (the next run writes it again) and how long a reader waits to see a document.
 */
const BATCH_ROWS = 10_000;
const BATCH_MS = 1_000;

/** The checkpoint token: which archive the run state's deliveries are in. */
interface SqliteCheckpoint {
  archive_id: string;
}

export default defineSink({
  type: "sqlite",
  summary: "A searchable SQLite archive: documents, pages and chunks, with an FTS5 full-text index over chunk text and titles (see `pagestream search`).",
  options,
  writesFiles: (opts, baseDir) => [{ path: resolve(baseDir, opts.path), option: "path" }],
  examples: [{ path: "out/archive.sqlite" }, { path: "/srv/archive/contracts.sqlite", stemming: "porter", trigram: true, prune: true }],
  async probe(opts, context) {
    const target = resolve(context.baseDir, opts.path);
    await checkWritable(target, "file", opts.path);
    if (!existsSync(target)) return `${opts.path} can be created`;
    const { default: Database } = await importAtRunTime<{ default: typeof import("better-sqlite3") }>("better-sqlite3");
    let db: InstanceType<typeof Database> | undefined;
    try {
      db = new Database(target, { readonly: true, fileMustExist: true });
      hardenConnection(db);
      const stored = tableExists(db, "archive_meta") ? (db.prepare("SELECT value FROM archive_meta WHERE key = 'schema_version'").get() as { value: string } | undefined)?.value : undefined;
      if (stored !== undefined && Number(stored) > ARCHIVE_SCHEMA_VERSION) {
        throw new Error(`${opts.path} has archive schema version ${stored}, newer than this pagestream's ${ARCHIVE_SCHEMA_VERSION}: run a newer pagestream, or write to a new file`);
      }
      checkFullTextTables(db);
      return `${opts.path} can be written (${stored === undefined ? "no archive in it yet" : `archive schema ${stored}${Number(stored) < ARCHIVE_SCHEMA_VERSION ? `, brought to ${ARCHIVE_SCHEMA_VERSION} by the next run` : ""}`})`;
    } catch (err) {
      if (/^SQLITE_(NOTADB|CORRUPT)/.test((err as { code?: string }).code ?? "")) throw new Error(`${opts.path} is not an SQLite archive: ${(err as Error).message}`);
      if (err instanceof ArchiveRefused) throw new Error(`${opts.path}: ${err.message}`, { cause: err });
      throw err;
    } finally {
      db?.close();
    }
  },
  async create(opts, context) {
    const target = resolve(context.baseDir, opts.path);
    await ensureFolder(dirname(target));
    const { default: Database } = await importAtRunTime<{ default: typeof import("better-sqlite3") }>("better-sqlite3");
    // A full disk or a read-only folder names the archive and the cause; other errors are the archive's own.
    const failure = (err: unknown) => (isStorageError(err) ? outputError(err, target) : err);
    let db: InstanceType<typeof Database>;
    try {
      db = new Database(target);
    } catch (err) {
      throw outputError(err, target, "open");
    }
    let writer: ArchiveWriter;
    let archiveId: string;
    try {
      // The file may come from elsewhere: its full-text tables are checked before FTS5 reads
      // or writes them (prepareArchive rebuilds and upgrades them).
      hardenConnection(db);
      checkFullTextTables(db);
      const prepared = prepareArchive(db, { stemming: opts.stemming, trigram: opts.trigram });
      for (const change of prepared.changes) context.warn(`${opts.path}: rebuilt the ${change}`);
      archiveId = prepared.archiveId;
      if (context.origin) {
        const before = recordOrigin(db, context.origin);
        if (before) context.warn(`${opts.path} held documents from ${describeSource(before)}; it now also takes this run's${context.origin.source ? ` (${describeSource(context.origin.source)})` : ""}, and serve reads originals from the new source only`);
      }
      writer = new ArchiveWriter(db);
    } catch (err) {
      db.close();
      if (isStorageError(err)) throw outputError(err, target);
      throw new Error(`${target}: ${(err as Error).message}`, { cause: err });
    }
    // Another archive than the one the run state wrote to (deleted, replaced): it gets every document again.
    const resumed = (context.checkpoint as SqliteCheckpoint | undefined)?.archive_id === archiveId;
    const written = new Set<string>();
    let batchRows = 0;
    // Commits a batch left open when documents arrive slowly (writes are synchronous, so the
    // timer never fires in the middle of one).
    let timer: NodeJS.Timeout | undefined;
    const commit = () => {
      clearTimeout(timer);
      timer = undefined;
      if (db.open && db.inTransaction) db.exec("COMMIT");
      batchRows = 0;
    };
    // A commit the timer makes has no caller to throw to (a full disk used to crash the process
    // from it, leaving run.lock behind): the run is told, and every later call throws it too.
    let broken: unknown;
    const unlessBroken = () => {
      if (broken !== undefined) throw broken;
    };
    const commitLater = () => {
      try {
        commit();
      } catch (err) {
        broken = failure(err);
        context.fail?.(broken);
      }
    };
    const inBatch = (rows: number) => {
      if (!db.inTransaction) {
        db.exec("BEGIN IMMEDIATE");
        timer = setTimeout(commitLater, BATCH_MS).unref();
      }
      batchRows += rows;
    };
    return {
      resumed,
      async write(result) {
        const rows = documentRows(result);
        try {
          unlessBroken();
          inBatch(1 + rows.pages.length + rows.chunks.length);
          writer.write(rows, new Date().toISOString());
          if (!resumed) written.add(result.uri);
          if (batchRows >= BATCH_ROWS) commit();
        } catch (err) {
          throw failure(err);
        }
      },
      ...(opts.prune
        ? {
            async remove(uri: string) {
              try {
                unlessBroken();
                inBatch(1);
                writer.remove(uri);
              } catch (err) {
                throw failure(err);
              }
            },
          }
        : {}),
      async checkpoint(): Promise<SqliteCheckpoint> {
        try {
          unlessBroken();
          commit();
        } catch (err) {
          throw failure(err);
        }
        return { archive_id: archiveId };
      },
      async close(summary) {
        try {
          unlessBroken();
          commit();
          // An archive the run state did not know got every document this run: what else it
          // holds is not in the source (the run state prunes a known archive document by document).
          if (opts.prune && !resumed && summary.complete && written.size > 0) {
            const removed = writer.prune(written);
            if (removed.length > 0) context.warn(`${opts.path}: pruned ${removed.length} document(s) no longer in the source`);
          }
          db.pragma("optimize");
          // Fold the write-ahead log into the database file: the archive is one file at rest.
          db.pragma("wal_checkpoint(TRUNCATE)");
        } finally {
          writer.close();
          db.close();
        }
      },
      async abort() {
        // Committed batches hold whole documents; the open one is dropped whole.
        clearTimeout(timer);
        if (db.open && db.inTransaction) db.exec("ROLLBACK");
        writer.close();
        if (db.open) db.close();
      },
    };
  },
});
