/**
 * The original PDF of an archived document, read through the archive's source: a folder path
 * or an S3 object (s3rver on loopback), only for a uri the archive holds inside that source,
 * and only while its bytes are still the archived ones.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_SOURCE, readOriginal, sourceAccess } from "../../src/serve/originals.js";
import folder from "../../src/sources/folder.js";
import s3 from "../../src/sources/s3/source.js";
import { S3RVER_ENV, startS3Server, type S3Server } from "../helpers/s3-server.js";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const source = (spec: typeof folder | typeof s3, options: Record<string, unknown>) => ({ type: spec.type, spec, options, baseDir: "/" });
const holdsAll = () => true;
const MAX = 1 << 30;

describe("originals from a folder source", () => {
  let dir: string;
  let bytes: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pagestream-originals-"));
    bytes = await readFile("fixtures/two-pages.pdf");
    await writeFile(join(dir, "a.pdf"), bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const access = () => sourceAccess(source(folder, folder.options.parse({ path: dir })));

  it("reads a file the archive holds inside the source folder", async () => {
    const original = await readOriginal(access(), { uri: join(dir, "a.pdf"), documentId: sha(bytes) }, holdsAll, MAX);
    expect(original.ok && Buffer.from(original.bytes).equals(bytes)).toBe(true);
  });

  it.each([
    ["a uri the archive does not hold", "a.pdf", () => false, "the archive does not hold this document's file"],
    ["a uri outside the source folder", "/etc/passwd", holdsAll, "it is not in the archive's source folder"],
    ["a uri that climbs out of it", "a/../../../etc/passwd", holdsAll, "it is not in the archive's source folder"],
    ["a file that is gone", "gone.pdf", holdsAll, "the file is no longer at"],
    ["a file whose bytes changed", "a.pdf", holdsAll, "the file has changed since it was archived"],
  ])("refuses %s, saying why", async (_what, name, holds, reason) => {
    const uri = name.startsWith("/") ? name : `${dir}/${name}`;
    const original = await readOriginal(access(), { uri, documentId: name === "a.pdf" && reason.includes("changed") ? "0".repeat(64) : sha(bytes) }, holds, MAX);
    expect(original.ok).toBe(false);
    expect(!original.ok && original.reason).toContain(reason);
  });

  it("says so without a pipeline, and over the byte limit", async () => {
    expect(await readOriginal(undefined, { uri: join(dir, "a.pdf"), documentId: sha(bytes) }, holdsAll, MAX)).toEqual({ ok: false, reason: NO_SOURCE });
    expect(await readOriginal(access(), { uri: join(dir, "a.pdf"), documentId: sha(bytes) }, holdsAll, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/more than max_file_bytes \(10\)$/) });
  });
});

describe("originals from an S3 source", () => {
  let server: S3Server;
  let bytes: Buffer;
  const saved = { ...process.env };
  beforeAll(async () => {
    server = await startS3Server(["archive"]);
    Object.assign(process.env, S3RVER_ENV);
    bytes = await readFile("fixtures/two-pages.pdf");
    await server.put("archive", "reports/2026/a.pdf", bytes);
  });
  afterAll(async () => {
    process.env = { ...saved };
    await server.stop();
  });
  const access = () => sourceAccess(source(s3, s3.options.parse({ bucket: "archive", prefix: "reports", endpoint: server.endpoint })));

  it("downloads the object the archive holds under the source's prefix", async () => {
    const original = await readOriginal(access(), { uri: "s3://archive/reports/2026/a.pdf", documentId: sha(bytes) }, holdsAll, MAX);
    expect(original.ok && Buffer.from(original.bytes).equals(bytes)).toBe(true);
  });

  it("refuses another bucket or prefix, and says when the object is gone", async () => {
    expect(await readOriginal(access(), { uri: "s3://other/reports/a.pdf", documentId: sha(bytes) }, holdsAll, MAX)).toEqual({ ok: false, reason: "it is not under the archive's source s3://archive/reports/" });
    expect(await readOriginal(access(), { uri: "s3://archive/private/a.pdf", documentId: sha(bytes) }, holdsAll, MAX)).toMatchObject({ ok: false });
    const gone = await readOriginal(access(), { uri: "s3://archive/reports/2026/gone.pdf", documentId: sha(bytes) }, holdsAll, MAX);
    expect(gone.ok).toBe(false);
    expect(!gone.ok && gone.reason).toMatch(/^the file could not be read: /);
  });
});
