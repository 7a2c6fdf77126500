/**
 * Redis itself, as it fails and as it is secured, with real redis-servers:
 * - lost mid-run (SIGKILL): the coordinator and the worker try to reconnect for
 *   queue.reconnect_seconds, then stop with an error naming the address; what was delivered is
 *   committed, and the next run (on a Redis started again, empty) does only the rest;
 * - TLS and a password (rediss://:password@…): a run works end to end, and the password shows
 *   in no output, log, summary or status; a wrong one is an error that does not repeat it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyInputs, localReference, gateMarks, INPUTS, outputs, pagestream, reads, stopAll, writePipeline } from "../../helpers/queue-runs.js";
import { waitFor } from "../../helpers/wait-for.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";

let tmp: string;
let local: ReturnType<typeof outputs>;
const servers: RedisServer[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-redis-faults-"));
  await copyInputs(join(tmp, "in"));
  local = await localReference(tmp);
});

afterAll(async () => {
  await stopAll();
  for (const server of servers) await server.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe("Redis lost mid-run", () => {
  it("stops coordinator and worker after reconnect_seconds, keeps what was delivered, and the next run does the rest", async () => {
    const redis = await startRedis();
    servers.push(redis);
    const dir = join(tmp, "lost");
    const gate = join(tmp, "lost-gate");
    await mkdir(gate);
    await writePipeline(dir, { gateDir: gate, queue: "{ reconnect_seconds: 3 }" });
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: dir });
    const run = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir });
    // The worker holds the fourth document; the three before it are delivered (the coordinator's claim says so).
    await waitFor("the worker to take the held document", () => gateMarks(gate).length > 0);
    const client = redis.client();
    await waitFor("three documents delivered", async () => (JSON.parse((await client.get("bull:pagestream:pagestream:coordinator")) ?? "{}").summary?.documents ?? 0) >= 3);
    client.disconnect();
    await redis.kill();

    const [stopped, lostWorker] = await Promise.all([run.exited, worker.exited]);
    const lost = `lost the queue's Redis at redis://127.0.0.1:${redis.port}: no answer for 3 s (queue.reconnect_seconds)`;
    expect([stopped.code, stopped.stderr]).toEqual([1, expect.stringContaining(lost)]);
    expect(stopped.stderr).toContain("What was delivered is kept; the next run goes on from there");
    expect([lostWorker.code, lostWorker.stderr]).toEqual([1, expect.stringContaining(lost)]);
    const report = JSON.parse(readFileSync(join(dir, "out/run-summary.json"), "utf8"));
    expect(report).toMatchObject({ exit_code: 1, error: expect.stringContaining(lost) });

    // Redis back, empty (nothing was persisted): the next run does only what was not delivered.
    await redis.restart();
    await writeFile(join(gate, "release"), "");
    const again = pagestream(["worker", "--queue", redis.url, "--concurrency", "2"], { cwd: dir });
    const resumed = await pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir }).exited;
    again.child.kill("SIGTERM");
    await again.exited;
    expect(resumed.code).toBe(3);
    expect(JSON.parse(readFileSync(join(dir, "out/run-summary.json"), "utf8")).summary).toMatchObject({ skipped: 3, documents: INPUTS.length - 3 });
    // Read once each, but the held one (its first worker was stopped with Redis).
    expect([...reads(dir)].sort()).toEqual([...INPUTS.map(([, name]) => `read ${name}`), "read d-held-service-agreement.pdf"].sort());
    const distributed = outputs(dir);
    expect(distributed.chunksJsonl).toBe(local.chunksJsonl);
    expect(distributed.archive).toEqual(local.archive);
  });
});

describe("Redis over TLS with a password", () => {
  const PASSWORD = "s3cret-Pa55word";

  it("runs end to end, and the password appears nowhere", async () => {
    const redis = await startRedis({ password: PASSWORD, tls: true });
    servers.push(redis);
    expect(redis.url).toMatch(/^rediss:\/\/:s3cret-Pa55word@127\.0\.0\.1:\d+$/);
    const env = { NODE_EXTRA_CA_CERTS: redis.caFile!, REDIS_URL: redis.url };
    const dir = join(tmp, "tls");
    const gate = join(tmp, "tls-gate");
    await mkdir(gate);
    await writeFile(join(gate, "release"), "");
    // The URL from the environment, as a deployment would give it.
    await writePipeline(dir, { gateDir: gate, queue: "${REDIS_URL}" });
    const worker = pagestream(["worker", "--concurrency", "2"], { cwd: dir, env });
    const run = await pagestream(["run", "--progress", "never"], { cwd: dir, env }).exited;
    const status = await pagestream(["status"], { cwd: dir, env }).exited;
    worker.child.kill("SIGTERM");
    const stoppedWorker = await worker.exited;

    expect(run.code).toBe(3);
    expect(status.stdout).toContain(`queue "pagestream" at rediss://:***@127.0.0.1:${redis.port}`);
    expect(run.stderr).toContain(`coordinator of the queue "pagestream" at rediss://:***@127.0.0.1:${redis.port}`);
    expect(outputs(dir).chunksJsonl).toBe(local.chunksJsonl);
    const said = [run.stdout, run.stderr, status.stdout, status.stderr, stoppedWorker.stdout, stoppedWorker.stderr];
    const written = readdirSync(join(dir, "out"))
      .filter((f) => !f.endsWith(".sqlite") && !f.endsWith("-wal") && !f.endsWith("-shm"))
      .map((f) => readFileSync(join(dir, "out", f), "utf8"));
    for (const text of [...said, ...written]) expect(text).not.toContain(PASSWORD);
    expect(existsSync(join(dir, "out/run-summary.json"))).toBe(true);
  });

  it("names a wrong password, or a certificate it cannot trust, without the password", async () => {
    const redis = servers.at(-1)!;
    const dir = tmp; // no pipeline file here: the queue is the flag's
    const wrong = redis.url.replace(PASSWORD, "not-the-Pa55word");
    const refused = await pagestream(["status", "--queue", wrong], { cwd: dir, env: { NODE_EXTRA_CA_CERTS: redis.caFile! } }).exited;
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/^pagestream: cannot reach the queue's Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+: it refused the credentials \(WRONGPASS/)]);
    expect(refused.stderr).not.toContain("not-the-Pa55word");
    const untrusted = await pagestream(["status", "--queue", redis.url], { cwd: dir }).exited;
    expect([untrusted.code, untrusted.stderr]).toEqual([1, expect.stringMatching(/cannot reach the queue's Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+: .*self-signed certificate/)]);
    expect(untrusted.stderr).not.toContain(PASSWORD);
  });
});
