/**
 * What an archive records of where its documents came from: the pipeline and its source's
 * locating options, never credentials; a change of source is reported so the run can say so.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { describeSource, readOrigin, recordOrigin } from "../../src/sinks/sqlite/archive-origin.js";
import { prepareArchive } from "../../src/sinks/sqlite/archive-schema.js";
import s3 from "../../src/sources/s3/source.js";

const folder = (path: string) => ({ type: "folder", options: { path } });

describe("the archive's recorded origin", () => {
  it("is read back as recorded, and a new source returns the one before", () => {
    const db = new Database(":memory:");
    prepareArchive(db, { stemming: "none", trigram: false });
    expect(readOrigin(db)).toEqual({});
    expect(recordOrigin(db, { pipeline: "/srv/a/pipeline.yaml", source: folder("/srv/a/pdfs") })).toBeUndefined();
    expect(readOrigin(db)).toEqual({ pipeline: "/srv/a/pipeline.yaml", source: folder("/srv/a/pdfs") });
    expect(recordOrigin(db, { pipeline: "/srv/a/pipeline.yaml", source: folder("/srv/a/pdfs") })).toBeUndefined();
    expect(recordOrigin(db, { pipeline: "/srv/b/pipeline.yaml", source: folder("/srv/b/pdfs") })).toEqual(folder("/srv/a/pdfs"));
    expect(readOrigin(db).pipeline).toBe("/srv/b/pipeline.yaml");
  });

  it("reads a hand-edited value as no source rather than failing", () => {
    const db = new Database(":memory:");
    prepareArchive(db, { stemming: "none", trigram: false });
    for (const value of ["not json", "[1,2]", '{"type":3}', '{"type":"folder","options":null}']) {
      db.prepare("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('source', ?)").run(value);
      expect(readOrigin(db).source, value).toBeUndefined();
    }
  });

  it("takes from an S3 source what locates its objects, and no profile or credentials", () => {
    const options = s3.options.parse({ bucket: "scans", prefix: "2026/", endpoint: "http://localhost:9000", region: "eu-west-1", profile: "archive-reader", max_attempts: 3 });
    const origin = s3.origin!(options, "/");
    expect(origin).toEqual({ bucket: "scans", prefix: "2026/", endpoint: "http://localhost:9000", region: "eu-west-1" });
    expect(describeSource({ type: "s3", options: origin })).toBe("s3://scans/2026/ at http://localhost:9000");
  });
});
