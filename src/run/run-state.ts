/**
 * The run state: a small SQLite file that remembers, per source uri, what the document was
 * (fingerprint, size, mtime, its documentId), the config that processed it, how it came out, and
 * which sinks hold it; and per sink, the token of its last durable checkpoint.
 *
 * It is what makes runs incremental (an unchanged document under an unchanged config is
 * skipped before it is read) and crash-safe: changes are kept in memory and committed in one
 * transaction only after every sink made its writes durable, so the state never claims what
 * a sink does not hold. A process killed in between loses at most the last batch, which the
 * next run does again (each sink drops what came after its checkpoint).
 */
import type { Database, Statement } from "better-sqlite3";
import { isStorageError, outputError } from "../core/output-error.js";
import type { ErrorCode } from "../core/records.js";

/** Bumped when the tables change shape; each older version has a migration below. */
const STATE_SCHEMA_VERSION = 3;

/** The steps from each version to the next: MIGRATIONS[n - 1] takes version n to n + 1. */
const MIGRATIONS = [
  // 1 → 2: one name for the sha256 of a document's bytes.
  "ALTER TABLE documents RENAME COLUMN content_hash TO document_id;",
  // 2 → 3: how many times in a row a document failed the same way (retried-once failures).
  "ALTER TABLE documents ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;",
];

const TABLES = `
CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS documents (
  uri TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  document_id TEXT,
  config_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'scan', 'failed')),
  error_code TEXT,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 1,
  pages INTEGER NOT NULL,
  chunks INTEGER NOT NULL,
  processed_at TEXT NOT NULL,
  seen_run INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS documents_seen ON documents (seen_run);
CREATE TABLE IF NOT EXISTS deliveries (
  uri TEXT NOT NULL REFERENCES documents (uri) ON DELETE CASCADE,
  sink TEXT NOT NULL,
  PRIMARY KEY (uri, sink)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sinks (key TEXT PRIMARY KEY, type TEXT NOT NULL, checkpoint TEXT) STRICT;
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  summary TEXT
) STRICT;
`;

/** What the state knows of one uri. */
export interface KnownDocument {
  fingerprint: string;
  /** sha256 of the bytes last processed; null when they could not be read. */
  documentId: string | null;
  configHash: string;
  errorCode: ErrorCode | null;
  /** Runs in a row that failed with errorCode on these bytes under this config (1 after one failure). */
  attempts: number;
  /** Keys of the sinks that hold it. */
  sinks: Set<string>;
}

/** How a document came out, as the state keeps it. */
export interface DocumentOutcome {
  fingerprint: string;
  size: number;
  mtimeMs: number;
  documentId: string | null;
  configHash: string;
  status: "ok" | "scan" | "failed";
  errorCode: ErrorCode | null;
  error: string | null;
  attempts: number;
  pages: number;
  chunks: number;
}

export interface FailedDocument {
  uri: string;
  code: ErrorCode;
  message: string;
  document_id: string | null;
  processed_at: string;
}

type Pending =
  | { kind: "seen" }
  | { kind: "fingerprint"; fingerprint: string; size: number; mtimeMs: number }
  | { kind: "outcome"; outcome: DocumentOutcome; sinks: string[]; replaceSinks: boolean }
  | { kind: "removed"; sinks: string[] };

export class RunState {
  readonly runId: number;
  private readonly pending = new Map<string, Pending[]>();
  private pendingCount = 0;
  private readonly find: Statement<[string], Omit<KnownDocument, "sinks"> & { sinks: string | null }>;
  private readonly markSeen: Statement<[number, string]>;
  private readonly setFingerprint: Statement;
  private readonly upsert: Statement;
  private readonly deliver: Statement<[string, string]>;
  private readonly undeliver: Statement<[string, string]>;
  private readonly clearDeliveries: Statement<[string]>;
  private readonly dropIfUndelivered: Statement<[string]>;
  private readonly saveCheckpoint: Statement<[string, string, string]>;

  private constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    db.pragma("journal_mode = WAL");
    // Safe without FULL: a commit lost to a power cut only makes the next run redo a batch,
    // because the sinks were made durable before it.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    migrate(db);
    this.runId = Number(db.prepare("INSERT INTO runs (started_at) VALUES (?)").run(new Date().toISOString()).lastInsertRowid);
    this.find = db.prepare(
      `SELECT fingerprint, document_id AS documentId, config_hash AS configHash, error_code AS errorCode, attempts,
              (SELECT json_group_array(sink) FROM deliveries d WHERE d.uri = documents.uri) AS sinks
         FROM documents WHERE uri = ?`,
    );
    this.markSeen = db.prepare("UPDATE documents SET seen_run = ? WHERE uri = ?");
    this.setFingerprint = db.prepare("UPDATE documents SET fingerprint = @fingerprint, size = @size, mtime_ms = @mtimeMs, seen_run = @run WHERE uri = @uri");
    this.upsert = db.prepare(
      `INSERT INTO documents (uri, fingerprint, size, mtime_ms, document_id, config_hash, status, error_code, error, attempts, pages, chunks, processed_at, seen_run)
       VALUES (@uri, @fingerprint, @size, @mtimeMs, @documentId, @configHash, @status, @errorCode, @error, @attempts, @pages, @chunks, @processedAt, @run)
       ON CONFLICT (uri) DO UPDATE SET fingerprint = excluded.fingerprint, size = excluded.size, mtime_ms = excluded.mtime_ms,
         document_id = excluded.document_id, config_hash = excluded.config_hash, status = excluded.status, error_code = excluded.error_code,
         error = excluded.error, attempts = excluded.attempts, pages = excluded.pages, chunks = excluded.chunks, processed_at = excluded.processed_at, seen_run = excluded.seen_run`,
    );
    this.deliver = db.prepare("INSERT OR IGNORE INTO deliveries (uri, sink) VALUES (?, ?)");
    this.undeliver = db.prepare("DELETE FROM deliveries WHERE uri = ? AND sink = ?");
    this.clearDeliveries = db.prepare("DELETE FROM deliveries WHERE uri = ?");
    this.dropIfUndelivered = db.prepare("DELETE FROM documents WHERE uri = ? AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.uri = documents.uri)");
    this.saveCheckpoint = db.prepare("INSERT INTO sinks (key, type, checkpoint) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET type = excluded.type, checkpoint = excluded.checkpoint");
  }

  static async open(path: string): Promise<RunState> {
    const { default: Database } = await import("better-sqlite3");
    let db: Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw outputError(err, path, "open");
    }
    try {
      return new RunState(db, path);
    } catch (err) {
      db.close();
      if (isStorageError(err)) throw outputError(err, path);
      throw new Error(`${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The token a sink returned at its last committed checkpoint. */
  checkpointOf(key: string): unknown {
    const row = this.db.prepare("SELECT checkpoint FROM sinks WHERE key = ?").get(key) as { checkpoint: string | null } | undefined;
    return row?.checkpoint ? JSON.parse(row.checkpoint) : undefined;
  }

  /**
   * The sinks of this pipeline: deliveries to sinks no longer in it are forgotten, and so are
   * those of a sink that did not resume (it starts empty), so every document goes to it again.
   */
  adoptSinks(sinks: readonly { key: string; resumed: boolean }[]): void {
    this.db.transaction(() => {
      const keys = sinks.map((s) => s.key);
      this.db.prepare(`DELETE FROM deliveries WHERE sink NOT IN (${keys.map(() => "?").join(", ")})`).run(...keys);
      this.db.prepare(`DELETE FROM sinks WHERE key NOT IN (${keys.map(() => "?").join(", ")})`).run(...keys);
      for (const sink of sinks) if (!sink.resumed) this.db.prepare("DELETE FROM deliveries WHERE sink = ?").run(sink.key);
      this.db.exec("DELETE FROM documents WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.uri = documents.uri)");
    })();
  }

  /** What the state knows of `uri`, this run's uncommitted changes included. */
  lookup(uri: string): KnownDocument | undefined {
    const row = this.find.get(uri);
    let known: KnownDocument | undefined = row && { ...row, sinks: new Set(JSON.parse(row.sinks ?? "[]") as string[]) };
    for (const change of this.pending.get(uri) ?? []) {
      if (change.kind === "fingerprint" && known) known = { ...known, fingerprint: change.fingerprint };
      else if (change.kind === "outcome") {
        const { fingerprint, documentId, configHash, errorCode, attempts } = change.outcome;
        const sinks = new Set(change.replaceSinks ? [] : known?.sinks);
        for (const s of change.sinks) sinks.add(s);
        known = { fingerprint, documentId, configHash, errorCode, attempts, sinks };
      } else if (change.kind === "removed" && known) {
        const sinks = new Set(known.sinks);
        for (const s of change.sinks) sinks.delete(s);
        known = sinks.size ? { ...known, sinks } : undefined;
      }
    }
    return known;
  }

  /** Changes waiting for the next commit. */
  get uncommitted(): number {
    return this.pendingCount;
  }

  /** The listing met `uri` (so it is not gone). */
  seen(uri: string): void {
    this.add(uri, { kind: "seen" });
  }

  /** The content is unchanged, but the source's fingerprint of it changed (a touched file). */
  refingerprint(uri: string, fingerprint: string, size: number, mtimeMs: number): void {
    this.add(uri, { kind: "fingerprint", fingerprint, size, mtimeMs });
  }

  /**
   * `sinks` now hold this outcome for `uri`. With `replaceSinks` (a new version) the other
   * sinks no longer count as holding it.
   */
  delivered(uri: string, outcome: DocumentOutcome, sinks: string[], replaceSinks: boolean): void {
    this.add(uri, { kind: "outcome", outcome, sinks, replaceSinks });
  }

  /** `sinks` no longer hold `uri`. */
  removed(uri: string, sinks: string[]): void {
    this.add(uri, { kind: "removed", sinks });
  }

  private add(uri: string, change: Pending): void {
    const list = this.pending.get(uri);
    if (list) list.push(change);
    else this.pending.set(uri, [change]);
    this.pendingCount++;
  }

  /** Records the pending changes and the sinks' checkpoint tokens, in one transaction. */
  commit(checkpoints: ReadonlyMap<string, { type: string; token: unknown }>): void {
    try {
      this.commitNow(checkpoints);
    } catch (err) {
      throw isStorageError(err) ? outputError(err, this.path) : err;
    }
  }

  private commitNow(checkpoints: ReadonlyMap<string, { type: string; token: unknown }>): void {
    const run = this.runId;
    const processedAt = new Date().toISOString();
    this.db.transaction(() => {
      for (const [uri, changes] of this.pending) {
        for (const change of changes) {
          if (change.kind === "seen") this.markSeen.run(run, uri);
          else if (change.kind === "fingerprint") this.setFingerprint.run({ uri, run, fingerprint: change.fingerprint, size: change.size, mtimeMs: Math.round(change.mtimeMs) });
          else if (change.kind === "outcome") {
            this.upsert.run({ uri, run, processedAt, ...change.outcome, mtimeMs: Math.round(change.outcome.mtimeMs) });
            if (change.replaceSinks) this.clearDeliveries.run(uri);
            for (const sink of change.sinks) this.deliver.run(uri, sink);
          } else {
            for (const sink of change.sinks) this.undeliver.run(uri, sink);
            this.dropIfUndelivered.run(uri);
          }
        }
      }
      for (const [key, { type, token }] of checkpoints) this.saveCheckpoint.run(key, type, JSON.stringify(token ?? null));
    })();
    this.pending.clear();
    this.pendingCount = 0;
  }

  /** Documents this run's listing did not meet (call after committing the listing). */
  gone(): { uri: string; documentId: string | null; sinks: Set<string> }[] {
    const rows = this.db
      .prepare("SELECT uri, document_id AS documentId, (SELECT json_group_array(sink) FROM deliveries d WHERE d.uri = documents.uri) AS sinks FROM documents WHERE seen_run < ? ORDER BY uri")
      .all(this.runId) as { uri: string; documentId: string | null; sinks: string }[];
    return rows.map((row) => ({ uri: row.uri, documentId: row.documentId, sinks: new Set(JSON.parse(row.sinks) as string[]) }));
  }

  /** Every document whose last outcome is a failure, in uri order. */
  failures(): FailedDocument[] {
    return this.db
      .prepare("SELECT uri, error_code AS code, error AS message, document_id, processed_at FROM documents WHERE status = 'failed' ORDER BY uri")
      .all() as FailedDocument[];
  }

  finishRun(summary: object): void {
    this.db.prepare("UPDATE runs SET finished_at = ?, summary = ? WHERE id = ?").run(new Date().toISOString(), JSON.stringify(summary), this.runId);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Creates the tables of a new state, or brings an older one to this version (in one transaction). */
function migrate(db: Database): void {
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;");
    const stored = (db.prepare("SELECT value FROM state_meta WHERE key = 'schema_version'").get() as { value: string } | undefined)?.value;
    const version = stored === undefined ? undefined : Number(stored);
    if (version !== undefined && version > STATE_SCHEMA_VERSION) {
      throw new Error(`the run state has schema version ${version}, newer than this pagestream's ${STATE_SCHEMA_VERSION}: run a newer pagestream, or delete it (every document is then processed again)`);
    }
    if (version !== undefined) for (let v = version; v < STATE_SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v - 1]!);
    db.exec(TABLES);
    db.prepare("INSERT OR REPLACE INTO state_meta (key, value) VALUES ('schema_version', ?)").run(String(STATE_SCHEMA_VERSION));
  })();
}
