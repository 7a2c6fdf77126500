/**
 * A real S3-protocol server for the tests: s3rver on loopback, in a child process the test
 * starts and stops (see s3rver-process.mjs), with its objects in a temporary folder. s3rver
 * takes the credentials S3RVER / S3RVER only.
 */
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pLimit from "p-limit";

export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
/** The environment a pipeline run needs to reach s3rver through the standard credential chain. */
export const S3RVER_ENV = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_EC2_METADATA_DISABLED: "true" };

export interface S3Server {
  endpoint: string;
  /** A client for setting up objects, with s3rver's credentials. */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  put(bucket: string, key: string, body: string | Uint8Array): Promise<void>;
  /** Puts many objects, a few at a time. */
  putAll(bucket: string, objects: [key: string, body: string | Uint8Array][]): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), "pagestream-s3rver-"));
  const child = spawn(process.execPath, ["--openssl-legacy-provider", join(dirname(fileURLToPath(import.meta.url)), "s3rver-process.mjs"), directory, ...buckets], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  const put = async (bucket: string, key: string, body: string | Uint8Array) => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  };
  return {
    endpoint,
    client,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    put,
    async putAll(bucket, objects) {
      const limit = pLimit(16);
      await Promise.all(objects.map(([key, body]) => limit(() => put(bucket, key, body))));
    },
    async stop() {
      client.destroy();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin!.end();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
