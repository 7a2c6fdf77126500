/**
 * The s3 source against a real S3-protocol server (s3rver, in a child process on loopback),
 * with a fault-injecting proxy in front of it for the failures S3 answers with (503 SlowDown,
 * 429, 500, 403 AccessDenied, archived objects) and for broken downloads.
 */
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DocumentError } from "../../src/core/document-error.js";
import type { Source } from "../../src/core/plugin.js";
import type { SourceItem } from "../../src/core/records.js";
import s3 from "../../src/sources/s3/source.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { S3RVER_ENV, startS3Server, type S3Server } from "../helpers/s3-server.js";

let server: S3Server;
let proxy: FaultProxy;
let bucketIndex = 0;
/** A fresh bucket per test, so tests do not see each other's objects. */
let bucket: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await startS3Server([]);
  proxy = await startFaultProxy(server.endpoint);
});
afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});
beforeEach(async () => {
  Object.assign(process.env, S3RVER_ENV);
  bucket = `docs-${++bucketIndex}`;
  await server.createBucket(bucket);
  proxy.reset();
});
afterEach(() => {
  process.env = { ...savedEnv };
  proxy.clearFaults();
});

const warnings: string[] = [];
async function open(options: Record<string, unknown> = {}, purpose: "run" | "read" = "run"): Promise<Source> {
  return s3.create(s3.options.parse({ bucket, endpoint: proxy.endpoint, ...options }), { baseDir: process.cwd(), warn: (m) => warnings.push(m), purpose });
}
async function listAll(source: Source): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.list()) items.push(item);
  return items;
}
const uris = (items: SourceItem[]) => items.map((i) => i.uri);
const gets = () => proxy.requests.filter((r) => r.method === "GET" && r.path.includes("x-id=GetObject")).map((r) => `${r.path.split("?")[0]} ${r.status}`);
const lists = () => proxy.requests.filter((r) => r.path.includes("list-type=2")).length;
const md5 = (body: string) => createHash("md5").update(body).digest("hex");
async function readError(source: Source, item: SourceItem): Promise<{ code: string; message: string }> {
  try {
    await source.read(item);
  } catch (err) {
    if (err instanceof DocumentError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`${item.uri} was read`);
}

describe("s3 source: listing", () => {
  it("lists lazily: the next page is asked for only when the run has taken the keys before it", async () => {
    await server.putAll(bucket, ["a", "b", "c", "d", "e", "f", "g"].map((k) => [`${k}.pdf`, "%PDF-1.4 " + k]));
    const source = await open({ page_size: 3 });
    expect(lists()).toBe(1); // the check at create
    const items = source.list()[Symbol.asyncIterator]();
    const taken: string[] = [];
    const take = async () => taken.push(((await items.next()).value as SourceItem).uri);
    await take();
    expect(lists()).toBe(2);
    await take();
    await take();
    expect(lists()).toBe(2);
    await take();
    expect(lists()).toBe(3);
    expect(taken).toEqual([`s3://${bucket}/a.pdf`, `s3://${bucket}/b.pdf`, `s3://${bucket}/c.pdf`, `s3://${bucket}/d.pdf`]);
    await items.return?.();
  });

  it("lists more than one page of 1000 keys with the default page size, in key order", async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `bulk/${String(i).padStart(4, "0")}.pdf`);
    await server.putAll(bucket, keys.map((k) => [k, "%PDF-1.4"]));
    const items = await listAll(await open({ prefix: "bulk" }));
    expect(uris(items)).toEqual(keys.map((k) => `s3://${bucket}/${k}`));
    expect(lists()).toBe(3); // the check, then pages of 1000 and 5
  });

  it("keeps keys with spaces and other scripts as they are in the uri, and reads them", async () => {
    await server.put(bucket, "Board minutes/2026 März – Ω.pdf", "%PDF-1.4 minutes");
    const source = await open();
    const [item] = await listAll(source);
    expect(item!.uri).toBe(`s3://${bucket}/Board minutes/2026 März – Ω.pdf`);
    expect(Buffer.from(await source.read(item!)).toString()).toBe("%PDF-1.4 minutes");
  });

  it("gives each object's listed size, time and ETag, and downloads nothing until read()", async () => {
    await server.put(bucket, "reports/q1.pdf", "%PDF-1.7 first quarter");
    const source = await open();
    const [item] = await listAll(source);
    expect(item!.uri).toBe(`s3://${bucket}/reports/q1.pdf`);
    expect(item!.size).toBe(22);
    expect(item!.fingerprint).toBe(`etag:"${md5("%PDF-1.7 first quarter")}"`);
    expect(Math.abs(item!.mtimeMs - Date.now())).toBeLessThan(60_000);
    expect(gets()).toEqual([]);
    expect(Buffer.from(await source.read(item!)).toString()).toBe("%PDF-1.7 first quarter");
    expect(gets()).toEqual([`/${bucket}/reports/q1.pdf 200`]);
  });

  it("lists items as plain data that a source built elsewhere to read downloads, without listing anything", async () => {
    await server.put(bucket, "reports/q2.pdf", "%PDF-1.7 second quarter");
    const [item] = await listAll(await open());
    const sent = JSON.parse(JSON.stringify(item)) as SourceItem;
    expect(sent).toEqual(item);
    expect(sent.key).toBe("reports/q2.pdf");
    const before = lists();
    const reader = await open({}, "read");
    expect(Buffer.from(await reader.read(sent)).toString()).toBe("%PDF-1.7 second quarter");
    expect(lists()).toBe(before); // no probe, no listing: the run checked the bucket already
    await expect(reader.read({ ...sent, uri: "s3://other-bucket/reports/q2.pdf" })).rejects.toThrow(/not an object of this source/);
  });

  it("takes the prefix as a folder, and skips folder markers", async () => {
    await server.putAll(bucket, [
      ["reports/2024/a.pdf", "%PDF"],
      ["reports/2024/", ""],
      ["reports/2024-old/b.pdf", "%PDF"],
      ["reports/2024/sub/c.PDF", "%PDF"],
      ["other/d.pdf", "%PDF"],
    ]);
    const expected = [`s3://${bucket}/reports/2024/a.pdf`, `s3://${bucket}/reports/2024/sub/c.PDF`];
    expect(uris(await listAll(await open({ prefix: "reports/2024" })))).toEqual(expected);
    expect(uris(await listAll(await open({ prefix: "reports/2024/" })))).toEqual(expected);
  });

  it("matches include and exclude globs relative to the prefix", async () => {
    await server.putAll(bucket, [
      ["in/keep/a.pdf", "%PDF"],
      ["in/drafts/b.pdf", "%PDF"],
      ["in/keep/drafts/c.pdf", "%PDF"],
      ["in/scan.tif", "II*"],
      ["in/.hidden/d.pdf", "%PDF"],
    ]);
    expect(uris(await listAll(await open({ prefix: "in", exclude: ["**/drafts/**"] })))).toEqual([`s3://${bucket}/in/keep/a.pdf`]);
    expect(uris(await listAll(await open({ prefix: "in", include: ["**/*"], exclude: ["drafts"] })))).toEqual([
      `s3://${bucket}/in/keep/a.pdf`,
      `s3://${bucket}/in/keep/drafts/c.pdf`,
      `s3://${bucket}/in/scan.tif`,
    ]);
  });

  it("warns when the prefix holds no objects", async () => {
    warnings.length = 0;
    expect(await listAll(await open({ prefix: "nothing-here" }))).toEqual([]);
    expect(warnings).toEqual([`s3://${bucket}/nothing-here/ holds no objects at ${proxy.endpoint}`]);
  });

  it("retries a listing page that answers 503 SlowDown and 500, then goes on", async () => {
    await server.putAll(bucket, ["a", "b", "c"].map((k) => [`${k}.pdf`, "%PDF"]));
    const source = await open({ page_size: 2 });
    proxy.inject({ path: /[?&]continuation-token=/, times: 1, error: { status: 503, code: "SlowDown", message: "Please reduce your request rate." } });
    proxy.inject({ path: /[?&]continuation-token=/, times: 1, error: { status: 500, code: "InternalError", message: "We encountered an internal error." } });
    expect(uris(await listAll(source))).toEqual(["a", "b", "c"].map((k) => `s3://${bucket}/${k}.pdf`));
    expect(proxy.requests.filter((r) => r.faulted).map((r) => r.status)).toEqual([503, 500]);
  });

  it("fails the run with the bucket and the error when a page keeps failing", async () => {
    await server.putAll(bucket, ["a", "b", "c"].map((k) => [`${k}.pdf`, "%PDF"]));
    const source = await open({ page_size: 2, max_attempts: 2 });
    proxy.inject({ path: /[?&]continuation-token=/, times: 5, error: { status: 503, code: "SlowDown", message: "Please reduce your request rate." } });
    await expect(listAll(source)).rejects.toThrow(
      `bucket "${bucket}" at ${proxy.endpoint} cannot be listed: SlowDown (HTTP 503): Please reduce your request rate., after 2 attempts`,
    );
  });
});

describe("s3 source: checks at create, before any document", () => {
  it("names the bucket and the endpoint when the bucket does not exist", async () => {
    await expect(open({ bucket: "no-such-bucket" })).rejects.toThrow(`bucket "no-such-bucket" does not exist at ${proxy.endpoint}`);
  });

  it("says the credentials were rejected when they are wrong", async () => {
    process.env.AWS_ACCESS_KEY_ID = "WRONG";
    await expect(open()).rejects.toThrow(
      `${proxy.endpoint} rejected the credentials for bucket "${bucket}" (InvalidAccessKeyId): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile`,
    );
  });

  it("says there are no credentials when the standard chain finds none", async () => {
    const empty = await mkdtemp(join(tmpdir(), "pagestream-aws-"));
    try {
      for (const name of Object.keys(process.env)) if (name.startsWith("AWS_") && name !== "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED") delete process.env[name];
      Object.assign(process.env, { AWS_SHARED_CREDENTIALS_FILE: join(empty, "credentials"), AWS_CONFIG_FILE: join(empty, "config"), AWS_EC2_METADATA_DISABLED: "true" });
      await expect(open()).rejects.toThrow(new RegExp(`^no AWS credentials for bucket "${bucket}" at ${proxy.endpoint}: .+\\. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE or the source's profile, or run with an instance or task role$`));
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("takes credentials from a named profile of the shared credentials file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pagestream-aws-"));
    try {
      await writeFile(join(dir, "credentials"), "[default]\naws_access_key_id = WRONG\naws_secret_access_key = WRONG\n\n[archive]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n");
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      Object.assign(process.env, { AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"), AWS_CONFIG_FILE: join(dir, "config") });
      await server.put(bucket, "a.pdf", "%PDF");
      expect(uris(await listAll(await open({ profile: "archive" })))).toEqual([`s3://${bucket}/a.pdf`]);
      await expect(open()).rejects.toThrow(/rejected the credentials/); // [default] is wrong
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("asks for a region on AWS when none is set anywhere, before any request", async () => {
    const empty = await mkdtemp(join(tmpdir(), "pagestream-aws-"));
    try {
      delete process.env.AWS_REGION;
      delete process.env.AWS_DEFAULT_REGION;
      Object.assign(process.env, { AWS_CONFIG_FILE: join(empty, "config"), AWS_SHARED_CREDENTIALS_FILE: join(empty, "credentials") });
      await expect(open({ endpoint: undefined })).rejects.toThrow(`no region for bucket "${bucket}" at AWS S3: set region on the source, or AWS_REGION`);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("says access is denied when the credentials may not list the bucket", async () => {
    proxy.inject({ path: /list-type=2/, times: 1, error: { status: 403, code: "AccessDenied", message: "Access Denied" } });
    await expect(open()).rejects.toThrow(
      `access denied to bucket "${bucket}" at ${proxy.endpoint}: these credentials cannot list it (s3:ListBucket): AccessDenied (HTTP 403): Access Denied`,
    );
  });

  it("says the endpoint cannot be reached, after retrying", async () => {
    const closed = await startFaultProxy(server.endpoint);
    await closed.stop(); // a port nothing listens on any more
    await expect(open({ endpoint: closed.endpoint, max_attempts: 2 })).rejects.toThrow(
      new RegExp(`^bucket "${bucket}" at ${closed.endpoint} cannot be listed: .*ECONNREFUSED.*, after 2 attempts$`),
    );
  });
});

describe("s3 source: reading objects", () => {
  it("retries a download answered with 503 SlowDown, 429 and 500 before it succeeds", async () => {
    await server.put(bucket, "a.pdf", "%PDF-1.4 retried");
    const source = await open();
    const [item] = await listAll(source);
    proxy.inject({ path: /a\.pdf\?x-id=GetObject/, times: 2, error: { status: 503, code: "SlowDown", message: "Please reduce your request rate." } });
    proxy.inject({ path: /a\.pdf\?x-id=GetObject/, times: 1, error: { status: 429, code: "TooManyRequests", message: "Too many requests" } });
    proxy.inject({ path: /a\.pdf\?x-id=GetObject/, times: 1, error: { status: 500, code: "InternalError", message: "We encountered an internal error." } });
    expect(Buffer.from(await source.read(item!)).toString()).toBe("%PDF-1.4 retried");
    expect(gets()).toEqual([503, 503, 429, 500, 200].map((s) => `/${bucket}/a.pdf ${s}`));
  });

  it("gives up after max_attempts with read_failed and the last error", async () => {
    await server.put(bucket, "a.pdf", "%PDF");
    const source = await open({ max_attempts: 3 });
    const [item] = await listAll(source);
    proxy.inject({ path: /a\.pdf\?x-id=GetObject/, times: 5, error: { status: 503, code: "SlowDown", message: "Please reduce your request rate." } });
    expect(await readError(source, item!)).toEqual({
      code: "read_failed",
      message: "the object could not be downloaded: SlowDown (HTTP 503): Please reduce your request rate., after 3 attempts",
    });
  });

  it("reports an object deleted after it was listed as not_found", async () => {
    await server.put(bucket, "gone.pdf", "%PDF");
    const source = await open();
    const [item] = await listAll(source);
    await server.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: "gone.pdf" }));
    expect(await readError(source, item!)).toEqual({
      code: "not_found",
      message: "the object no longer exists, it was deleted after it was listed: NoSuchKey (HTTP 404): The specified key does not exist.",
    });
  });

  it("reports access_denied for an object these credentials may not read, and reads the others", async () => {
    await server.putAll(bucket, [["private.pdf", "%PDF private"], ["public.pdf", "%PDF public"]]);
    const source = await open();
    const [secret, open_] = await listAll(source);
    proxy.inject({ path: /private\.pdf\?x-id=GetObject/, times: 1, error: { status: 403, code: "AccessDenied", message: "Access Denied" } });
    expect(await readError(source, secret!)).toEqual({
      code: "access_denied",
      message: "access denied: these credentials cannot read this object (s3:GetObject, or its KMS key): AccessDenied (HTTP 403): Access Denied",
    });
    expect(Buffer.from(await source.read(open_!)).toString()).toBe("%PDF public");
    expect(gets()).toEqual([`/${bucket}/private.pdf 403`, `/${bucket}/public.pdf 200`]);
  });

  it("says an archived object must be restored first", async () => {
    await server.put(bucket, "cold.pdf", "%PDF");
    const source = await open();
    const [item] = await listAll(source);
    proxy.inject({
      path: /cold\.pdf\?x-id=GetObject/,
      times: 1,
      error: { status: 403, code: "InvalidObjectState", message: "The operation is not valid for the object's storage class", extra: { StorageClass: "GLACIER" } },
    });
    expect(await readError(source, item!)).toEqual({
      code: "read_failed",
      message: "the object is in archival storage (GLACIER) and must be restored before it can be read: InvalidObjectState (HTTP 403): The operation is not valid for the object's storage class",
    });
  });

  it("refuses an object listed over max_object_bytes without asking for it", async () => {
    await server.put(bucket, "big.pdf", "%PDF-1.4 " + "x".repeat(100));
    const source = await open({ max_object_bytes: 50 });
    const [item] = await listAll(source);
    expect(await readError(source, item!)).toEqual({ code: "too_large", message: "the object is 109 bytes, more than max_object_bytes (50); it was not downloaded" });
    expect(gets()).toEqual([]);
  });

  it("refuses by ContentLength an object that grew over the cap after it was listed", async () => {
    await server.put(bucket, "grows.pdf", "%PDF");
    const source = await open({ max_object_bytes: 50 });
    const [item] = await listAll(source);
    await server.put(bucket, "grows.pdf", "%PDF-1.4 " + "x".repeat(100));
    expect(await readError(source, item!)).toEqual({ code: "too_large", message: "the object is 109 bytes, more than max_object_bytes (50); it was not downloaded" });
  });

  it("counts a body sent without Content-Length against the cap as it arrives", async () => {
    await server.put(bucket, "chunked.pdf", "%PDF");
    await server.put(bucket, "chunked-big.pdf", "%PDF");
    const source = await open({ max_object_bytes: 50 });
    const [big, small] = await listAll(source);
    await server.put(bucket, "chunked-big.pdf", "%PDF-1.4 " + "x".repeat(100));
    proxy.inject({ path: /chunked.*\?x-id=GetObject/, times: 2, dropContentLength: true });
    expect(await readError(source, big!)).toEqual({ code: "too_large", message: "the object is more than max_object_bytes (50); its download was stopped there" });
    expect(Buffer.from(await source.read(small!)).toString()).toBe("%PDF");
  });

  it("starts a download that was cut off midway again, and gets every byte", async () => {
    const body = "%PDF-1.4 " + "0123456789".repeat(1000);
    await server.put(bucket, "cut.pdf", body);
    const source = await open();
    const [item] = await listAll(source);
    proxy.inject({ path: /cut\.pdf\?x-id=GetObject/, times: 1, cutBodyAfterBytes: 4000 });
    expect(Buffer.from(await source.read(item!)).toString()).toBe(body);
    expect(gets()).toEqual([`/${bucket}/cut.pdf 200`, `/${bucket}/cut.pdf 200`]);
  });

  it("gives up on a download cut off on every attempt with read_failed", async () => {
    await server.put(bucket, "cut.pdf", "%PDF-1.4 " + "0123456789".repeat(1000));
    const source = await open({ max_attempts: 2 });
    const [item] = await listAll(source);
    proxy.inject({ path: /cut\.pdf\?x-id=GetObject/, times: 2, cutBodyAfterBytes: 4000 });
    expect(await readError(source, item!)).toEqual({ code: "read_failed", message: "the download was cut off 2 time(s), last: aborted" });
  });

  it("reports timeout for an object whose request is never answered", async () => {
    await server.put(bucket, "silent.pdf", "%PDF");
    const source = await open({ max_attempts: 2, timeout_seconds: 0.3 });
    const [item] = await listAll(source);
    proxy.inject({ path: /silent\.pdf\?x-id=GetObject/, times: 2, hang: true });
    expect(await readError(source, item!)).toEqual({
      code: "timeout",
      message: "no answer within 0.3 s: @smithy/node-http-handler - the request socket timed out after 300 ms of inactivity (configured by client requestHandler)., after 2 attempts",
    });
  });

  it("gives up on a download that stalls on every attempt with timeout, as a stall and not a cut", async () => {
    await server.put(bucket, "stuck.pdf", "%PDF-1.4 " + "0123456789".repeat(1000));
    const source = await open({ max_attempts: 2, timeout_seconds: 0.5 });
    const [item] = await listAll(source);
    proxy.inject({ path: /stuck\.pdf\?x-id=GetObject/, times: 2, stallAfterBytes: 4000 });
    expect(await readError(source, item!)).toEqual({ code: "timeout", message: "the download stalled: no data for 0.5 s, 2 time(s)" });
  });

  it("times out a download that stalls, and starts it again", async () => {
    const body = "%PDF-1.4 " + "0123456789".repeat(1000);
    await server.put(bucket, "stall.pdf", body);
    const source = await open({ timeout_seconds: 0.5 });
    const [item] = await listAll(source);
    proxy.inject({ path: /stall\.pdf\?x-id=GetObject/, times: 1, stallAfterBytes: 4000 });
    expect(Buffer.from(await source.read(item!)).toString()).toBe(body);
    expect(gets()).toEqual([`/${bucket}/stall.pdf 200`, `/${bucket}/stall.pdf 200`]);
  });
});
