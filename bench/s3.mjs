#!/usr/bin/env node
// `node bench/s3.mjs`: the s3 source, each figure against a reference measured in the same run,
// on s3rver (a real S3-protocol server) on loopback, in a child process this script starts:
//   pipeline  `pagestream run` (extract → JSONL, concurrency 2) over the perf corpus uploaded to
//             a bucket, against the same run over the same files in a folder: what listing and
//             downloading over S3 add to a run (seconds and peak RSS, median of the repetitions,
//             round-robin, each run its own process);
//   listing   the s3 source's list() over a bucket of many small objects, in keys per second,
//             against the SDK's bare ListObjectsV2 paginator over the same keys (the floor);
//   memory    the V8 heap the listing keeps (after a full GC, sampled as it goes), lazily as the
//             runner pulls it, against holding every listed item (what an eager listing would).
// Nothing is asserted; prints a markdown table and writes bench/results/s3-latest.json.
//
//   node bench/s3.mjs [--reps N] [--keys N]
//     --reps  repetitions of each pipeline row (default 3)
//     --keys  objects in the listing bucket (default 10000; uploading them takes most of the time)
//   PAGESTREAM_BENCH_CORPUS=DIR   the perf corpus folder; default ../shared/corpus/perf
// Measures the build in dist/: run `npm run build` first.
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(import.meta.dirname, "..");
const { int: arg } = scriptArgs(import.meta.url, "bench/s3");
const reps = arg("--reps", 3);
const keyCount = arg("--keys", 10000);
const corpusDir = process.env.PAGESTREAM_BENCH_CORPUS ?? resolve(root, "../shared/corpus/perf");
if (!existsSync(join(root, "dist/cli.js"))) {
  console.error("bench: dist/ is missing: run `npm run build` first");
  process.exit(2);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_EC2_METADATA_DISABLED: "true", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };

Object.assign(process.env, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" }); // the pinned SDK's notice about Node 22
const work = mkdtempSync(join(tmpdir(), "pagestream-bench-s3-"));
const server = await startS3rver(join(work, "s3rver"));
const client = new S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
const results = { machine: { cpus: cpus().length, loadavg: loadavg() }, reps, keys: keyCount };
try {
  // ------------------------------------------------------------------------------ pipeline
  const files = existsSync(corpusDir) ? readdirSync(corpusDir).filter((f) => /\.pdf$/i.test(f)).sort() : [];
  if (files.length === 0) {
    console.error(`bench: perf corpus not found in ${corpusDir} (set PAGESTREAM_BENCH_CORPUS); the pipeline rows are skipped`);
  } else {
    await client.send(new CreateBucketCommand({ Bucket: "perf" }));
    for (const f of files) await client.send(new PutObjectCommand({ Bucket: "perf", Key: `corpus/${f}`, Body: readFileSync(join(corpusDir, f)) }));
    const pipelines = {
      folder: `source: { type: folder, path: ${JSON.stringify(corpusDir)} }`,
      s3: `source: { type: s3, bucket: perf, prefix: corpus, endpoint: "${server.endpoint}" }`,
    };
    const runs = { folder: [], s3: [] };
    for (let rep = 0; rep < reps; rep++) {
      for (const [name, source] of Object.entries(pipelines)) {
        const dir = join(work, `${name}-${rep}`);
        mkdirSync(dir);
        writeFileSync(join(dir, "pipeline.yaml"), `concurrency: 2\n${source}\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out.jsonl }]\n`);
        process.stderr.write(`bench: pipeline ${name}, repetition ${rep + 1}/${reps}\n`);
        runs[name].push(await measuredRun(dir));
      }
    }
    results.pipeline = Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, { seconds: median(r.map((x) => x.seconds)), maxRssMiB: median(r.map((x) => x.maxRssMiB)), runs: r }]));
  }

  // ------------------------------------------------------------------------------ listing
  process.stderr.write(`bench: uploading ${keyCount} objects for the listing\n`);
  await client.send(new CreateBucketCommand({ Bucket: "keys" }));
  const keys = Array.from({ length: keyCount }, (_, i) => `archive/${String(i % 100).padStart(2, "0")}/document-${String(i).padStart(7, "0")}.pdf`);
  for (let i = 0; i < keys.length; i += 32) {
    await Promise.all(keys.slice(i, i + 32).map((Key) => client.send(new PutObjectCommand({ Bucket: "keys", Key, Body: "%PDF-1.4\n" }))));
  }
  const listing = {};
  for (const mode of ["paginator", "source", "lazy", "eager"]) {
    process.stderr.write(`bench: listing, ${mode}\n`);
    listing[mode] = await listingRun(mode);
  }
  results.listing = listing;
} finally {
  client.destroy();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------- report
const rows = ["| measurement | figure | reference (same run) | ratio |", "|---|---|---|---|"];
if (results.pipeline) {
  const { folder, s3 } = results.pipeline;
  rows.push(`| run over S3 (s3rver, loopback), seconds | ${s3.seconds.toFixed(2)} s | folder source: ${folder.seconds.toFixed(2)} s | ${(s3.seconds / folder.seconds).toFixed(2)}× the time |`);
  rows.push(`| run over S3, peak RSS | ${s3.maxRssMiB.toFixed(0)} MiB | folder source: ${folder.maxRssMiB.toFixed(0)} MiB | ${(s3.maxRssMiB / folder.maxRssMiB).toFixed(2)}× |`);
}
const { paginator, source, lazy, eager } = results.listing;
rows.push(`| s3 source list(), ${keyCount} keys | ${Math.round(source.keysPerSecond)} keys/s | bare SDK paginator: ${Math.round(paginator.keysPerSecond)} keys/s | ${(source.keysPerSecond / paginator.keysPerSecond).toFixed(2)}× the speed |`);
rows.push(`| heap kept while listing ${keyCount} keys | ${(lazy.peakHeapGrowthKiB / 1024).toFixed(1)} MiB | holding every item: ${(eager.peakHeapGrowthKiB / 1024).toFixed(1)} MiB | ${(lazy.peakHeapGrowthKiB / eager.peakHeapGrowthKiB).toFixed(2)}× |`);
console.log(rows.join("\n"));
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/s3-latest.json"), JSON.stringify(results, null, 2) + "\n");

// ---------------------------------------------------------------------------------- helpers
async function startS3rver(directory) {
  mkdirSync(directory);
  const child = spawn(process.execPath, ["--openssl-legacy-provider", join(root, "test/helpers/s3rver-process.mjs"), directory], { stdio: ["pipe", "pipe", "inherit"] });
  const { port } = await new Promise((ok, ko) => {
    child.once("exit", (code) => ko(new Error(`s3rver exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => ok(JSON.parse(line)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise((ok) => (child.once("exit", ok), child.stdin.end())),
  };
}

function runChild(args, options) {
  return new Promise((ok, ko) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      code === 0 ? ok({ seconds, stdout }) : ko(new Error(`${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}

async function measuredRun(dir) {
  const probe = join(dir, "probe.json");
  const { seconds } = await runChild(["--import", pathToFileURL(join(root, "bench/probe-preload.mjs")).href, join(root, "dist/cli.js"), "run"], {
    cwd: dir,
    env: { ...process.env, ...CREDENTIALS, PAGESTREAM_BENCH_PROBE_FILE: probe },
  });
  return { seconds, maxRssMiB: JSON.parse(readFileSync(probe, "utf8")).maxRssKiB / 1024 };
}

/** One listing in its own process: the bare paginator, the source (timed), the source sampled for memory as it goes, or with every item kept. */
async function listingRun(mode) {
  const script = `
    const { S3Client, paginateListObjectsV2 } = await import("@aws-sdk/client-s3");
    const { default: s3 } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/sources/s3/source.js")).href)});
    const mode = ${JSON.stringify(mode)};
    const heap = () => (globalThis.gc(), process.memoryUsage().heapUsed);
    let keys = 0, peak = 0;
    const kept = [];
    const base = heap();
    // Only the memory modes sample (a full GC each 1000 keys); the speed modes run undisturbed.
    const sample = () => { if (mode !== "source" && keys % 1000 === 0) peak = Math.max(peak, heap() - base); };
    const started = process.hrtime.bigint();
    if (mode === "paginator") {
      const client = new S3Client({ endpoint: ${JSON.stringify(server.endpoint)}, region: "us-east-1", forcePathStyle: true });
      for await (const page of paginateListObjectsV2({ client, pageSize: 1000 }, { Bucket: "keys", Prefix: "archive/" })) keys += page.Contents.length;
    } else {
      const source = await s3.create(s3.options.parse({ bucket: "keys", prefix: "archive", endpoint: ${JSON.stringify(server.endpoint)} }), { baseDir: ".", warn() {} });
      for await (const item of source.list()) { keys++; if (mode === "eager") kept.push(item); sample(); }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    peak = Math.max(peak, heap() - base);
    process.stdout.write(JSON.stringify({ keys, seconds, keysPerSecond: keys / seconds, peakHeapGrowthKiB: peak / 1024, kept: kept.length }));
  `;
  const { stdout } = await runChild(["--expose-gc", "--input-type=module", "-e", script], { cwd: root, env: { ...process.env, ...CREDENTIALS } });
  const result = JSON.parse(stdout);
  if (result.keys !== keyCount) throw new Error(`listing ${mode} saw ${result.keys} keys, not ${keyCount}`);
  return result;
}
