// @ts-check
/**
 * Loads a chunk file into a LanceDB table as it is, night after night:
 *
 *   node examples/lancedb/load-chunks.mjs out/lancedb.jsonl ./lancedb [chunks]
 *
 * The file is the live chunks of a folder in the flat shape with every metadata key on every
 * line — a jsonl sink with `mode: snapshot, stable_keys: true`, or
 * `pagestream export --shape flat --stable-keys`. The table's columns come from
 * chunk.schema.json (integers as Int64, lists of strings as List<Utf8>), not from the first
 * night's rows: LanceDB would read whole numbers as Float64 and cannot type a list that is
 * empty on every row. Each load is one merge on the chunk id, so the table ends up holding
 * exactly the file's chunks: new ones inserted, changed ones updated, ones gone from the file
 * (a replaced or deleted PDF's) deleted.
 *
 * Needs `npm install @lancedb/lancedb apache-arrow` beside pagestream. Prints a JSON line:
 * { table, inserted, updated, deleted, rows }. A line it cannot load (another shape, a missing
 * key, a tombstone from a log file) stops it with the file, the line and the reason, exit 2.
 */
import * as lancedb from "@lancedb/lancedb";
import { Field, Int64, List, Schema, Struct, Utf8 } from "apache-arrow";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** The published JSON Schema of a chunk line (the pagestream package's chunk.schema.json). */
export function chunkSchema() {
  return createRequire(import.meta.url)("pagestream/chunk.schema.json");
}

/**
 * The Arrow schema of a flat chunk line, from chunk.schema.json: every column non-null (the
 * schema allows no null), "integer" as Int64, "string" as Utf8, a list of strings as List<Utf8>,
 * the metadata as a struct of its keys in their order.
 */
export function arrowSchema(jsonSchema = chunkSchema()) {
  const { definitions } = jsonSchema;
  /** @param {string} name @param {any} property @returns {Field} */
  const field = (name, property) => {
    if (property.$ref) {
      const target = definitions[property.$ref.replace("#/definitions/", "")];
      return new Field(name, new Struct(Object.entries(target.properties).map(([k, p]) => field(k, p))), false);
    }
    if (property.type === "integer") return new Field(name, new Int64(), false);
    if (property.type === "string") return new Field(name, new Utf8(), false);
    if (property.type === "array" && property.items?.type === "string") return new Field(name, new List(new Field("item", new Utf8(), false)), false);
    throw new Error(`chunk.schema.json: ${name} has a type this loader does not map (${JSON.stringify(property.type)})`);
  };
  return new Schema(Object.entries(definitions.flat.properties).map(([k, p]) => field(k, p)));
}

class BadLine extends Error {}

/** The lines of `file` as rows, each checked to have every key the schema declares. */
export async function chunkRows(file, jsonSchema = chunkSchema()) {
  const top = Object.keys(jsonSchema.definitions.flat.properties);
  const keys = Object.keys(jsonSchema.definitions.metadata.properties);
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const at = `${file} line ${i + 1}`;
      let row;
      try {
        row = JSON.parse(line);
      } catch {
        throw new BadLine(`${at} is not JSON`);
      }
      if (row.type === "tombstone") throw new BadLine(`${at} is a tombstone: load a snapshot (mode: snapshot) or \`pagestream export\`, which hold only the live chunks`);
      const missingTop = top.filter((k) => !(k in row));
      if (missingTop.length) throw new BadLine(`${at} is not in the flat shape (no ${missingTop.join(", ")}): write it with shape: flat, or export with --shape flat`);
      const missing = keys.filter((k) => !(k in row.metadata));
      if (missing.length) throw new BadLine(`${at} has no metadata ${missing.join(", ")}: write it with stable_keys: true, or export with --stable-keys`);
      return row;
    });
}

/** Makes `table` in the database at `uri` hold exactly the chunks of `file`. */
export async function loadChunks(file, uri, table = "chunks") {
  const rows = await chunkRows(file);
  const db = await lancedb.connect(uri);
  const names = await db.tableNames();
  const t = names.includes(table) ? await db.openTable(table) : await db.createEmptyTable(table, arrowSchema());
  const merged = rows.length
    ? await t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().whenNotMatchedBySourceDelete().execute(rows)
    : { numInsertedRows: 0, numUpdatedRows: 0, numDeletedRows: await deleteAll(t) };
  const result = { table, inserted: merged.numInsertedRows, updated: merged.numUpdatedRows, deleted: merged.numDeletedRows, rows: await t.countRows() };
  t.close();
  db.close();
  return result;
}

/** An empty file: no live chunks, so none in the table. */
async function deleteAll(t) {
  const before = await t.countRows();
  await t.delete("true");
  return before;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, uri, table] = process.argv.slice(2);
  if (!file || !uri) {
    process.stderr.write("usage: node load-chunks.mjs CHUNKS.jsonl LANCEDB_FOLDER [TABLE]\n");
    process.exit(2);
  }
  try {
    process.stdout.write(JSON.stringify(await loadChunks(file, uri, table)) + "\n");
  } catch (err) {
    if (!(err instanceof BadLine) && /** @type {NodeJS.ErrnoException} */ (err).code !== "ENOENT") throw err;
    process.stderr.write(`load-chunks: ${/** @type {Error} */ (err).message}\n`);
    process.exit(2);
  }
}
