/**
 * Where an archive's documents came from: the pipeline file that writes it and its source
 * (`archive_meta` keys `pipeline` and `source`, the latter a SourceOrigin as JSON). Recorded by
 * each run, so that `serve`, `search`, `export` and `mcp` opened on the archive alone — from
 * another folder, with another pipeline.yaml beside it — read the originals from where they
 * are, and know whether the archive's own pipeline can take a dropped file.
 */
import type { Database } from "better-sqlite3";
import type { RunOrigin, SourceOrigin } from "../../core/plugin.js";
import { tableExists } from "./archive-schema.js";

/** What an archive says of its origin; both undefined for one written before it was recorded. */
export interface RecordedOrigin {
  pipeline?: string;
  source?: SourceOrigin;
}

export function readOrigin(db: Database): RecordedOrigin {
  if (!tableExists(db, "archive_meta")) return {};
  const value = (key: string) => (db.prepare("SELECT value FROM archive_meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
  const pipeline = value("pipeline");
  const source = parseSource(value("source"));
  return { ...(pipeline ? { pipeline } : {}), ...(source ? { source } : {}) };
}

/**
 * Records the run's origin; returns the source recorded before when it was another one (an
 * archive now holding documents of two sources: the caller says so).
 */
export function recordOrigin(db: Database, origin: RunOrigin): SourceOrigin | undefined {
  const before = readOrigin(db).source;
  const set = db.prepare("INSERT INTO archive_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  db.transaction(() => {
    set.run("pipeline", origin.pipeline);
    if (origin.source) set.run("source", JSON.stringify(origin.source));
    else db.prepare("DELETE FROM archive_meta WHERE key = 'source'").run();
  })();
  return before && (!origin.source || describeSource(before) !== describeSource(origin.source)) ? before : undefined;
}

/** A source origin in a few words: "folder /srv/scans", "s3 s3://bucket/prefix (endpoint http://…)". */
export function describeSource(source: SourceOrigin): string {
  const o = source.options;
  if (source.type === "folder" && typeof o.path === "string") return `folder ${o.path}`;
  if (source.type === "s3" && typeof o.bucket === "string") {
    const prefix = typeof o.prefix === "string" ? o.prefix : "";
    return `s3://${o.bucket}/${prefix}${typeof o.endpoint === "string" ? ` at ${o.endpoint}` : ""}`;
  }
  return `${source.type} ${JSON.stringify(o)}`;
}

/** A recorded source, or undefined when it is missing or not what a run writes (a hand-edited archive). */
function parseSource(text: string | undefined): SourceOrigin | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null) return undefined;
    const { type, options } = value as { type?: unknown; options?: unknown };
    if (typeof type !== "string" || typeof options !== "object" || options === null || Array.isArray(options)) return undefined;
    const scalars = Object.entries(options).filter(([, v]) => ["string", "number", "boolean"].includes(typeof v));
    return { type, options: Object.fromEntries(scalars) as SourceOrigin["options"] };
  } catch {
    return undefined;
  }
}
