/**
 * Where the queue is: a Redis URL taken apart with its password masked for every message, the
 * `queue:` key of pipeline.yaml (with `${VAR}` references), and the errors of a queue that is
 * wrong (exit 2) or does not answer (exit 1) — none of which may show the password.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePipeline } from "../../../src/pipeline/config.js";
import { parseRedisUrl } from "../../../src/pipeline/redis-url.js";
import { CLI } from "../../helpers/queue-runs.js";

const SECRET = "hunter2-secret";
let tmp: string;
let closedPort: number;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-queue-address-"));
  await writeFile(join(tmp, "pipeline.yaml"), "source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n");
  // A port nothing listens on: taken, then let go.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: tmp, encoding: "utf8" });

describe("a Redis URL", () => {
  it("is taken apart, and shown with its password masked", () => {
    expect(parseRedisUrl(`rediss://ingest:${SECRET}@redis.internal:6380/2`)).toEqual({
      ok: true,
      address: { host: "redis.internal", port: 6380, db: 2, username: "ingest", password: SECRET, tls: true, shown: "rediss://ingest:***@redis.internal:6380/2" },
    });
    expect(parseRedisUrl("redis://127.0.0.1")).toMatchObject({ ok: true, address: { port: 6379, db: 0, tls: false, shown: "redis://127.0.0.1" } });
    expect(parseRedisUrl("redis://:p%40ss@[::1]:7000")).toMatchObject({ ok: true, address: { host: "::1", password: "p@ss", shown: "redis://:***@[::1]:7000" } });
  });

  it("is refused when it is not one, without repeating a password", () => {
    for (const [url, problem] of [
      [`http://:${SECRET}@host:6379`, "http://:***@host:6379 is not a Redis URL: it must start with redis:// or rediss:// (TLS)"],
      [`redis://:${SECRET}@host:6379/queue`, 'redis://:***@host:6379/queue: the path must be a database number (/0, /1, …), not "/queue"'],
      [`redis://:${SECRET}@host:port`, "not a URL: write redis://host:6379 or rediss://host:6379 (TLS) (the value is not shown: it may hold a password)"],
    ]) {
      expect(parseRedisUrl(url!)).toEqual({ ok: false, problem });
    }
  });
});

describe("queue: in pipeline.yaml", () => {
  const base = "source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n";
  const parse = (queue: string, env: NodeJS.ProcessEnv = {}) => parsePipeline(`queue: ${queue}\n${base}`, { file: "pipeline.yaml", baseDir: tmp, env });

  it("takes a URL, or settings with one, and ${VAR} references for what is secret", async () => {
    const short = await parse("redis://queue.internal:6379");
    expect(short.ok && short.config.settings.queue).toMatchObject({ url: "redis://queue.internal:6379", name: "pagestream", attempts: 3, max_jobs_in_flight: 64 });
    const full = await parse("{ url: 'redis://:${REDIS_PASSWORD}@queue.internal', name: nightly, lock_duration_seconds: 10 }", { REDIS_PASSWORD: SECRET });
    expect(full.ok && full.config.settings.queue).toMatchObject({ url: `redis://:${SECRET}@queue.internal`, name: "nightly", lock_duration_seconds: 10 });
  });

  it("points at the line and column of a bad URL or setting, with the password masked", async () => {
    const bad = await parse(`{ url: 'ftp://:${SECRET}@x', attempts: 0 }`);
    expect(bad).toEqual({
      ok: false,
      issues: [
        { file: "pipeline.yaml", line: 1, col: 15, path: "queue.url", message: "ftp://:***@x is not a Redis URL: it must start with redis:// or rediss:// (TLS)" },
        { file: "pipeline.yaml", line: 1, col: 52, path: "queue.attempts", message: "must be at least 1, got 0" },
      ],
    });
    const short = await parse("'tcp://x'");
    expect(short.ok ? [] : short.issues.map((i) => [i.path, i.message])).toEqual([["queue", "tcp://x is not a Redis URL: it must start with redis:// or rediss:// (TLS)"]]);
  });
});

describe("a queue that is wrong or away", () => {
  it("exits 2 for a URL that is not Redis's, on run, worker and status", () => {
    for (const command of ["run", "worker", "status"]) {
      const r = cli([command, "--queue", `http://:${SECRET}@127.0.0.1:6379`]);
      expect([command, r.status, r.stderr]).toEqual([command, 2, "pagestream: --queue: http://:***@127.0.0.1:6379 is not a Redis URL: it must start with redis:// or rediss:// (TLS)\n"]);
    }
  });

  it("exits 1 naming the address (never the password) when nothing answers, before the run folder is touched", () => {
    for (const command of ["run", "worker", "status"]) {
      const r = cli([command, "--queue", `redis://:${SECRET}@127.0.0.1:${closedPort}`]);
      expect([command, r.status, r.stderr]).toEqual([command, 1, `pagestream: cannot reach the queue's Redis at redis://:***@127.0.0.1:${closedPort}: connect ECONNREFUSED 127.0.0.1:${closedPort}\n`]);
    }
    expect(spawnSync("ls", [tmp], { encoding: "utf8" }).stdout.split("\n").filter(Boolean)).toEqual(["pipeline.yaml"]);
  });

  it("asks for a queue when a worker has none", () => {
    const r = cli(["worker"]);
    expect([r.status, r.stderr]).toEqual([2, "pagestream: a worker needs a queue: give --queue redis://host:6379, or queue: in the pipeline file\n"]);
  });

  it("never shows a password in --help", () => {
    for (const command of ["run", "worker", "status"]) {
      const r = spawnSync(process.execPath, [CLI, command, "--help"], { encoding: "utf8", env: { ...process.env, REDIS_URL: `redis://:${SECRET}@h`, REDIS_PASSWORD: SECRET } });
      expect(r.stdout).toContain("--queue <url>");
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
  });
});
