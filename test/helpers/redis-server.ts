/**
 * A real Redis for the queue's tests: Debian's redis-server on a free loopback port, with a
 * temporary folder of its own and nothing persisted (`--save '' --appendonly no`), started by
 * the test and stopped after it. With `password` it requires one; with `tls` it speaks TLS only,
 * with a certificate for 127.0.0.1 made by openssl, whose file a client trusts through
 * NODE_EXTRA_CA_CERTS.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

export interface RedisServer {
  port: number;
  /** redis:// (or rediss://) URL with the password, for the processes under test. */
  url: string;
  /** The CA file a TLS client must trust (NODE_EXTRA_CA_CERTS), with tls. */
  caFile?: string;
  /** A client for the test's own looks (with the password and TLS). */
  client(): Redis;
  /** Stops it at once (SIGKILL): a Redis lost mid-run. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  password?: string;
  tls?: boolean;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "pagestream-redis-"));
  let caFile: string | undefined;
  if (options.tls) {
    caFile = join(dir, "cert.pem");
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", caFile, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  }
  let port = 0;
  let child: ChildProcess | undefined;
  const launch = async () => {
    const listen = options.tls
      ? ["--port", "0", "--tls-port", String(port), "--tls-cert-file", caFile!, "--tls-key-file", join(dir, "key.pem"), "--tls-ca-cert-file", caFile!, "--tls-auth-clients", "no"]
      : ["--port", String(port)];
    const args = ["--bind", "127.0.0.1", ...listen, "--dir", dir, "--save", "", "--appendonly", "no", "--logfile", "", ...(options.password ? ["--requirepass", options.password] : [])];
    const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      started.stdout!.setEncoding("utf8");
      started.stdout!.on("data", (text: string) => {
        output += text;
        if (output.includes("Ready to accept connections")) resolve();
      });
      started.once("error", reject);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${output.slice(-500)}`)));
    });
    child = started;
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      // Another process took the port between the look and the start: another one.
      if (attempt >= 3 || !String(err).includes("Address already in use")) throw err;
    }
  }
  const stopChild = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill(signal);
    await exited;
  };
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : "";
  return {
    port,
    url: `${options.tls ? "rediss" : "redis"}://${auth}127.0.0.1:${port}`,
    ...(caFile ? { caFile } : {}),
    client() {
      return new Redis({ host: "127.0.0.1", port, ...(options.password ? { password: options.password } : {}), ...(options.tls ? { tls: { ca: readFileSync(caFile!) } } : {}) });
    },
    kill: () => stopChild("SIGKILL"),
    restart: launch,
    async stop() {
      await stopChild("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    },
  };
}
