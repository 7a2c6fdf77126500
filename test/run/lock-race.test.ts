/**
 * Simultaneous starts over a stale run.lock (left by a run killed with SIGKILL) admit exactly one
 * run. Eight processes, started once and kept, are told to take the lock at the same moment,
 * round after round; the one that gets it holds it while the others try. The takeover that moved
 * aside "whatever was at run.lock" admitted two runs about one round in twelve.
 */
import { fork, spawnSync, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

const CONTENDERS = 8;
// Before the fix, 28 rounds in 30 admitted two to five runs: 20 rounds cannot miss it. 100 were measured by hand (LOCK_RACE_ROUNDS=100).
const ROUNDS = Number(process.env.LOCK_RACE_ROUNDS ?? 20);

let dir: string;
let contenders: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-lock-race-"));
  contenders = Array.from({ length: CONTENDERS }, () => fork(resolve("test/helpers/lock-contender.mjs"), { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  await Promise.all(contenders.map((c) => reply(c, "ready")));
});
afterAll(async () => {
  for (const c of contenders) c.send({ op: "exit" });
  await rm(dir, { recursive: true, force: true });
});

function reply(child: ChildProcess, op: string): Promise<{ won?: boolean; message?: string }> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a contender exited (${code})`));
    const onMessage = (m: { op: string }) => {
      if (m.op !== op) return;
      child.off("message", onMessage).off("exit", onExit);
      resolve(m);
    };
    child.on("message", onMessage).once("exit", onExit);
  });
}

/** A pid that no process has: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

it(`admits one run of ${CONTENDERS} simultaneous starts over a stale lock, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
  const admitted: number[] = [];
  const dead = deadPid();
  for (let round = 0; round < ROUNDS; round++) {
    const folder = join(dir, `round-${round}`);
    await mkdir(folder);
    await writeFile(join(folder, "run.lock"), JSON.stringify({ pid: dead, host: hostname(), started_at: "2026-01-01T00:00:00.000Z", process_start: "1" }) + "\n");
    const answers = await Promise.all(
      contenders.map((c) => {
        const answer = reply(c, "take");
        c.send({ op: "take", folder });
        return answer;
      }),
    );
    const winners = contenders.filter((_, i) => answers[i]!.won);
    for (const [i, a] of answers.entries()) if (!a.won) expect(a.message, `contender ${i}`).toMatch(/^another run \(pid \d+, started [0-9T:.Z-]+\) holds out\/$|^another run holds out\/$/);
    admitted.push(winners.length);
    await Promise.all(
      winners.map((c) => {
        const done = reply(c, "release");
        c.send({ op: "release" });
        return done;
      }),
    );
  }
  expect(admitted.filter((n) => n !== 1)).toEqual([]);
});
