/**
 * Pipelines over a bucket as a user runs them: `pagestream run` (the compiled CLI, in a child
 * process) against s3rver on loopback, credentials from the environment as the standard chain
 * finds them, the endpoint from an env reference in pipeline.yaml.
 */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { tracedCli } from "../helpers/loaded-modules.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../src/run/run-pipeline.js";
import { formatIssue, parsePipeline } from "../../src/pipeline/config.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { S3RVER_ENV, startS3Server, type S3Server } from "../helpers/s3-server.js";
import { serve } from "../serve/serve-fixture.js";

const CLI = resolve("dist/cli.js");
const SAMPLES = ["meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"];
let server: S3Server;
let proxy: FaultProxy;
let tmp: string;

beforeAll(async () => {
  server = await startS3Server(["archive", "nightly", "flaky", "dying"]);
  proxy = await startFaultProxy(server.endpoint);
  tmp = await mkdtemp(join(tmpdir(), "pagestream-s3-run-"));
  const samples = await Promise.all(SAMPLES.map(async (name) => [`intake/${name}`, await readFile(`fixtures/samples/${name}`)] as [string, Uint8Array]));
  await server.putAll("archive", [...samples, ["intake/notes.pdf", "minutes to follow\n"], ["intake/drafts/old.pdf", await readFile("fixtures/two-pages.pdf")]]);
  await server.putAll("nightly", samples.slice(0, 2));
  await server.putAll("flaky", samples);
});
afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
  await rm(tmp, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process, which hosts the fault proxy. */
function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...S3RVER_ENV, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

async function pipelineDir(name: string, source: string): Promise<string> {
  const dir = await mkdtemp(join(tmp, name + "-"));
  await writeFile(
    join(dir, "pipeline.yaml"),
    [
      "source:",
      "  type: s3",
      source,
      "  endpoint: ${S3_ENDPOINT}",
      "stages: [{ type: extract }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk }]",
      "sinks:",
      "  - { type: jsonl, records: chunks, path: out/chunks.jsonl }",
      "  - { type: sqlite, path: out/archive.sqlite }",
      "",
    ].join("\n"),
  );
  return dir;
}
const jsonLines = async (file: string) => (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l));
function documentRows(dir: string) {
  const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT uri, document_id, status, error_code, chunk_count, ingested_at FROM documents ORDER BY uri").all() as {
      uri: string;
      document_id: string | null;
      status: string;
      error_code: string | null;
      chunk_count: number;
      ingested_at: string;
    }[];
  } finally {
    db.close();
  }
}

describe("pagestream run over a bucket", () => {
  it("keeps s3://bucket/key as the uri in the JSONL and the archive, with an error record for an object that is not a PDF", async () => {
    const dir = await pipelineDir("uris", '  bucket: archive\n  prefix: intake\n  exclude: ["drafts"]');
    const r = await cli(["run"], dir, { S3_ENDPOINT: server.endpoint });
    expect(r.stderr.split("\n")[0]!.replace(/^\S+Z /, "")).toBe("pagestream: s3://archive/intake/notes.pdf: not_pdf: not a PDF: the file does not start with a %PDF- header");
    expect(r.stderr).toMatch(/\n\S+Z pagestream: 3 document\(s\) ingested \(9 pages\), 1 failed \(not_pdf 1\), 0 skipped unchanged, \d+ chunks, in [\d.]+ s \([\d.]+ pages\/s\)\n$/);
    expect(r.code).toBe(3);
    const documents = await jsonLines(join(dir, "out/chunks.documents.jsonl"));
    expect(documents.map((d) => `${d.uri} ${d.status}${d.code ? " " + d.code : ""}`)).toEqual([
      "s3://archive/intake/meeting-minutes.pdf ok",
      "s3://archive/intake/notes.pdf failed not_pdf",
      "s3://archive/intake/quarterly-report.pdf ok",
      "s3://archive/intake/service-agreement.pdf ok",
    ]);
    const chunks = await jsonLines(join(dir, "out/chunks.jsonl"));
    expect([...new Set(chunks.map((c) => c.metadata.source_uri))]).toEqual(documents.filter((d) => d.status === "ok").map((d) => d.uri));
    expect(documentRows(dir).map((d) => `${d.uri} ${d.status}${d.error_code ? " " + d.error_code : ""}`)).toEqual(documents.map((d) => `${d.uri} ${d.status}${d.code ? " " + d.code : ""}`));
    const search = await cli(["search", "harbour dues", "--db", "out/archive.sqlite", "--json", "--path", "s3://archive/intake/"], dir);
    expect(search.code).toBe(0);
    expect([...new Set((JSON.parse(search.stdout).hits as { uri: string }[]).map((h) => h.uri))]).toEqual(["s3://archive/intake/quarterly-report.pdf"]);
  });

  it("records the bucket in the archive: serve started elsewhere reads the originals from it, with credentials from its own environment", async () => {
    const dir = await pipelineDir("served", '  bucket: nightly');
    expect((await cli(["run"], dir, { S3_ENDPOINT: server.endpoint })).code).toBe(0);
    const elsewhere = await mkdtemp(join(tmp, "elsewhere-"));
    const served = await serve(elsewhere, ["--db", join(dir, "out/archive.sqlite")], S3RVER_ENV);
    try {
      // Its pipeline names the endpoint by a variable this shell does not set: the recorded source is read.
      expect(served.stderr()).toContain(`originals from s3://nightly/ at ${server.endpoint}`);
      expect(served.stderr()).toMatch(/pipeline\.yaml, does not load here \(.*S3_ENDPOINT.*\): a dropped PDF cannot be added/);
      const [row] = documentRows(dir);
      const original = await fetch(new URL(`/api/documents/${row!.document_id}/original`, served.url));
      expect(original.status).toBe(200);
      expect(createHash("sha256").update(Buffer.from(await original.arrayBuffer())).digest("hex")).toBe(row!.document_id);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it("replaces the rows of an object changed between two runs, and leaves the unchanged one untouched", async () => {
    const dir = await pipelineDir("changed", "  bucket: nightly\n  prefix: intake/");
    expect((await cli(["run"], dir, { S3_ENDPOINT: server.endpoint })).code).toBe(0);
    const [minutes, report] = documentRows(dir);
    await server.put("nightly", "intake/quarterly-report.pdf", await readFile("fixtures/two-pages.pdf"));
    expect((await cli(["run"], dir, { S3_ENDPOINT: server.endpoint })).code).toBe(0);
    const [minutesAgain, reportAgain] = documentRows(dir);
    expect(minutesAgain).toEqual(minutes);
    expect(reportAgain!.uri).toBe("s3://nightly/intake/quarterly-report.pdf");
    expect(reportAgain!.document_id).not.toBe(report!.document_id);
    expect(reportAgain!.chunk_count).toBe(1);
    expect(reportAgain!.ingested_at > report!.ingested_at).toBe(true);
  });

  it("does not download an object whose ETag is unchanged since the last run", async () => {
    const dir = await pipelineDir("etag", "  bucket: nightly\n  prefix: intake/");
    expect((await cli(["run"], dir, { S3_ENDPOINT: proxy.endpoint })).code).toBe(0);
    proxy.reset();
    const again = await cli(["run"], dir, { S3_ENDPOINT: proxy.endpoint });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/0 document\(s\) ingested \(0 pages\), 0 failed, 2 skipped unchanged/);
    expect(proxy.requests.filter((q) => q.path.includes("x-id=GetObject"))).toEqual([]);
  });

  it("fails before any document when the bucket does not exist, naming it and the endpoint; validate stays offline", async () => {
    const dir = await pipelineDir("missing", "  bucket: no-such-bucket");
    const r = await cli(["run"], dir, { S3_ENDPOINT: server.endpoint });
    expect(r).toEqual({ code: 1, stdout: "", stderr: `pagestream: bucket "no-such-bucket" does not exist at ${server.endpoint}\n` });
    expect(existsSync(join(dir, "out"))).toBe(false);
    // Every module validate loads, traced through the bundles: it checks the options without the SDK.
    const v = tracedCli(["validate"], dir, { S3_ENDPOINT: "http://127.0.0.1:9" });
    expect(v.code).toBe(0);
    expect(v.stdout).toContain("pipeline.yaml: ok (source s3; stages extract → flag-scans → strip-furniture → dehyphenate → chunk; sinks jsonl, sqlite)\n");
    expect(v.sources.some((s) => s.endsWith("src/sources/s3/source.ts"))).toBe(true);
    expect(v.sources.filter((s) => s.includes("@aws-sdk") || s.includes("@smithy"))).toEqual([]);
  });

  it("stops with one error when the endpoint stops answering mid-run, keeps what was done, and the next run goes on", async () => {
    await server.putAll("dying", Array.from({ length: 9 }, (_, i) => [`more/${i}.pdf`, "%PDF-1.4 a one-line document that is not a real PDF\n"] as [string, string]));
    const dying = await startFaultProxy(server.endpoint);
    const dir = await pipelineDir("dying", "  bucket: dying\n  prefix: more\n  max_attempts: 1");
    // From the third on, no download is answered; meanwhile the endpoint goes away. (With only
    // the third hung, a fast machine read four more before the endpoint went, two short of a stop.)
    dying.inject({ path: /more\/[2-8]\.pdf\?x-id=GetObject/, times: 7, hang: true });
    const running = cli(["run", "--progress", "never"], dir, { S3_ENDPOINT: dying.endpoint });
    while (!dying.requests.some((q) => q.path.includes("more/2.pdf"))) await new Promise((r) => setTimeout(r, 20));
    await dying.stop();
    const r = await running;
    expect(r.code).toBe(1);
    const fatal = r.stderr.split("\n").filter((l) => l.includes("the source stopped answering"));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(/^pagestream: the source stopped answering, 3 documents in a row: http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)/);
    // Far fewer records than documents left: the run stopped instead of failing each one. Three
    // in a row stop it; the downloads hung when the endpoint went are cut (read_failed), or one
    // asked for as it went finds it gone (one more).
    expect(r.stderr.match(/source_unreachable/g)!.length).toBeLessThanOrEqual(4);
    const report = JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8"));
    expect([report.exit_code, report.error]).toEqual([1, expect.stringContaining("the source stopped answering")]);
    const again = await cli(["run", "--progress", "never"], dir, { S3_ENDPOINT: server.endpoint });
    expect(again.code).toBe(3); // every object is read now (they are not real PDFs)
    const { summary } = JSON.parse(await readFile(join(dir, "out/run-summary.json"), "utf8"));
    // What was read before the endpoint went away is kept; the rest are read now. The hung third
    // download was asked for by a worker that had finished a document, so at least one was read.
    const readBefore = report.summary.failedByCode.damaged as number;
    expect(readBefore).toBeGreaterThanOrEqual(1);
    expect([summary.skipped, summary.documents, summary.failedByCode]).toEqual([readBefore, 9 - readBefore, { damaged: 9 - readBefore }]);
  });

  it("ingests every document when S3 answers 503 SlowDown a few times before each download", async () => {
    const dir = await pipelineDir("flaky", "  bucket: flaky");
    proxy.reset();
    for (const name of SAMPLES) {
      proxy.inject({ path: new RegExp(`/flaky/intake/${name.replace(".", "\\.")}\\?x-id=GetObject`), times: 2, error: { status: 503, code: "SlowDown", message: "Please reduce your request rate." } });
    }
    const r = await cli(["run"], dir, { S3_ENDPOINT: proxy.endpoint });
    expect(r.stderr).toMatch(/^\S+Z pagestream: 3 document\(s\) ingested \(9 pages\), 0 failed, 0 skipped unchanged, \d+ chunks, in [\d.]+ s \([\d.]+ pages\/s\)\n$/);
    expect(r.code).toBe(0);
    const downloads = proxy.requests.filter((q) => q.path.includes("x-id=GetObject"));
    expect(downloads.map((q) => q.status).sort()).toEqual([200, 200, 200, 503, 503, 503, 503, 503, 503]);
    expect(documentRows(dir).map((d) => `${d.uri} ${d.status}`)).toEqual(SAMPLES.map((n) => `s3://flaky/intake/${n} ok`));
  });

  it("downloads in the workers, one object per worker at a time, and never in the run's own process", async () => {
    const dir = await mkdtemp(join(tmp, "limit-"));
    const text = `concurrency: 2\nsource: { type: s3, bucket: archive, prefix: intake, endpoint: "${proxy.endpoint}" }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out.jsonl }]\n`;
    const parsed = await parsePipeline(text, { file: "pipeline.yaml", baseDir: dir, env: {} });
    if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
    const saved = { ...process.env };
    Object.assign(process.env, S3RVER_ENV);
    try {
      proxy.reset();
      // Each download waits a little, so that any the run allowed at once overlap.
      proxy.inject({ path: /x-id=GetObject/, times: 10, delayMs: 150 });
      const { summary } = await runPipeline(parsed.config, { baseDir: dir, warn: () => {} }, { pipelineFile: join(dir, "pipeline.yaml") });
      expect([summary.documents, summary.ok]).toEqual([5, 4]);
    } finally {
      process.env = saved;
      proxy.clearFaults();
    }
    expect(proxy.requests.filter((q) => q.path.includes("x-id=GetObject")).length).toBe(5);
    expect(proxy.maxOpenDownloads()).toBe(2);
  });

  it("reads the endpoint and the profile from env references, and names an unset one at its line", async () => {
    const dir = await pipelineDir("unset", "  bucket: archive\n  profile: ${ARCHIVE_PROFILE}");
    const r = await cli(["validate"], dir, { S3_ENDPOINT: server.endpoint });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("pipeline.yaml:4:12 source.profile: environment variable ARCHIVE_PROFILE is not set (write ${ARCHIVE_PROFILE:-fallback} for a default)\n");
  });
});

describe("the S3 pipelines of docs/pipelines.md", () => {
  it("validate as they are written", async () => {
    const readme = await readFile("docs/pipelines.md", "utf8");
    const sources = [...readme.matchAll(/```yaml\n([^`]*?type: s3\n[^`]*?)```/g)].map((m) => m[1]!);
    expect(sources.length).toBe(2);
    for (const source of sources) {
      const r = await parsePipeline(`${source}stages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n`, { file: "docs/pipelines.md", baseDir: tmp, env: { MINIO_PROFILE: "minio" } });
      expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([]);
    }
  });
});
