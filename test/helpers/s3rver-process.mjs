// Hosts s3rver (a real S3-protocol server) on loopback for the tests, in its own process:
// s3rver's listing continuation tokens use DES, which Node 20's OpenSSL 3 only offers with
// --openssl-legacy-provider, a flag this process is started with and the test process is not.
// Prints {"port": N} on stdout once listening; stops when its stdin closes (the test ended or died).
import S3rver from "s3rver";

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});
const { port } = await server.run();
process.stdout.write(JSON.stringify({ port }) + "\n");
process.stdin.resume();
process.stdin.on("end", async () => {
  await server.close();
  process.exit(0);
});
