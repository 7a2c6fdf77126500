/**
 * `pagestream serve` under hostile uploads (issue 35, item 8): many large uploads at once, a
 * body trickled a byte at a time, clients that go away mid-body. Each against a server started
 * as a user starts it, with its own temp folder (TMPDIR), so the test sees where bodies go.
 */
import { connect, type Socket } from "node:net";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError } from "../../src/serve/api-types.js";
import { archiveFolder, serve, type Served } from "./serve-fixture.js";

let dir: string;

beforeAll(async () => {
  dir = await archiveFolder();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server with a temp folder of its own; `uploads()` lists the files in its upload folder with their sizes. */
async function served(args: string[] = []): Promise<{ server: Served; uploads(): Promise<number[]>; done(): Promise<void> }> {
  const tmp = await mkdtemp(join(tmpdir(), "pagestream-serve-tmp-"));
  const server = await serve(dir, args, { TMPDIR: tmp }).catch(async (err: unknown) => {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  });
  return {
    server,
    async uploads() {
      // The server removes files while this looks: one gone between the listing and its stat is gone.
      const gone = (err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
        return undefined;
      };
      const sizes: number[] = [];
      for (const folder of await readdir(tmp)) {
        if (!folder.startsWith("pagestream-uploads-")) continue;
        for (const file of (await readdir(join(tmp, folder)).catch(gone)) ?? []) {
          const size = (await stat(join(tmp, folder, file)).catch(gone))?.size;
          if (size !== undefined) sizes.push(size);
        }
      }
      return sizes;
    },
    async done() {
      expect(await server.stop()).toBe(0);
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** An upload by hand on a socket: the headers and `bytes` of a body announced as `length` bytes; the rest is the test's to send or withhold. */
function startUpload(url: string, length: number, bytes: number): { socket: Socket; answer: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = "";
  socket.setEncoding("latin1").on("data", (t: string) => (answer += t));
  socket.on("error", () => {});
  socket.write(`POST /api/extract?name=held.pdf HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/pdf\r\nContent-Length: ${length}\r\n\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let sent = 0; sent < bytes; sent += chunk.length) socket.write(chunk.subarray(0, Math.min(chunk.length, bytes - sent)));
  return { socket, answer: new Promise((done) => socket.once("close", () => done(answer))) };
}

/** Waits for `check` to hold, asking every 100 ms, at most `tries` times; fails with what it saw last. */
async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean, tries = 300): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !check(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  if (!check(value)) throw new Error(`${what}: never happened (last seen: ${JSON.stringify(value)})`);
  return value;
}

/** The server process's resident memory, in bytes. */
async function rssOf(pid: number): Promise<number> {
  return Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

const extractPdf = async (url: string) => fetch(new URL("/api/extract?name=two-pages.pdf", url), { method: "POST", body: await readFile("fixtures/two-pages.pdf"), headers: { "content-type": "application/pdf" } });

describe("pagestream serve: hostile uploads", () => {
  it("takes two uploads at once, streamed to disk as they arrive (memory does not grow with them); a third gets 503 with Retry-After; clients that go away free their slots and files", async () => {
    const s = await served();
    try {
      const MIB = 1024 * 1024;
      const held = 80 * MIB;
      const before = await rssOf(s.server.pid);
      // Two uploads of 80 MiB each, all but their last MiB sent, held open.
      const uploads = [startUpload(s.server.url, held, held - MIB), startUpload(s.server.url, held, held - MIB)];
      // The bodies are on disk as they arrive: two files in the upload folder, each as long as what was sent.
      await eventually("two bodies on disk as far as they were sent", s.uploads, (sizes) => sizes.length === 2 && sizes.every((n) => n === held - MIB));
      // …and not in the server's memory: it grew by less than one of them (buffered, it would be both).
      expect(await rssOf(s.server.pid)).toBeLessThan(before + held);

      const third = await extractPdf(s.server.url);
      expect(third.status).toBe(503);
      expect(third.headers.get("retry-after")).toBe("5");
      expect(((await third.json()) as ApiError).error.code).toBe("busy");

      for (const upload of uploads) upload.socket.destroy();
      await eventually("the files of uploads whose clients went away removed", s.uploads, (sizes) => sizes.length === 0);
      const next = await eventually("an upload taken again", () => extractPdf(s.server.url).then((r) => r.status), (status) => status !== 503);
      expect(next).toBe(200);
      expect(s.server.stderr()).not.toMatch(/failed on this request|Error/);
    } finally {
      await s.done();
    }
  });

  it("cuts off a body trickled a byte at a time after --request-timeout-seconds with a 408, removes what came of it, and takes uploads again", async () => {
    const s = await served(["--request-timeout-seconds", "2"]);
    try {
      const { socket, answer } = startUpload(s.server.url, 1000, 1);
      // A byte every 250 ms: the connection is never idle, and the body would take 250 s.
      let trickled = 1;
      const trickle = setInterval(() => {
        if (!socket.destroyed && trickled < 1000) socket.write(Buffer.from([0x25])), trickled++;
      }, 250);
      const text = await answer;
      clearInterval(trickle);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(trickled).toBeLessThan(1000);
      await eventually("the trickled body's file removed", s.uploads, (sizes) => sizes.length === 0);
      expect((await extractPdf(s.server.url)).status).toBe(200);
      expect(s.server.stderr()).not.toMatch(/failed on this request|Error/);
    } finally {
      await s.done();
    }
  });

  it("refuses a body announced over the limit before reading it, and one that runs past it while it streams, keeping no file", async () => {
    const s = await served(["--max-upload-mb", "1"]);
    try {
      const announced = startUpload(s.server.url, 1024 * 1024 + 1, 0);
      expect(await Promise.race([new Promise<string>((done) => announced.socket.once("data", (t: string) => done(t))), announced.answer])).toMatch(/^HTTP\/1\.1 413 /);
      announced.socket.destroy();
      // Chunked, with no length announced: counted as it streams.
      const chunked = await fetch(new URL("/api/extract?name=big.pdf", s.server.url), {
        method: "POST",
        headers: { "content-type": "application/pdf" },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(512 * 1024));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(((await chunked.json()) as ApiError).error.code).toBe("too_large");
      expect(await s.uploads()).toEqual([]);
      expect((await extractPdf(s.server.url)).status).toBe(200);
    } finally {
      await s.done();
    }
  });
});
