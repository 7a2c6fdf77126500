import { constants, deflateRawSync, deflateSync, gzipSync, brotliCompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SynchronousDecompressionStream } from "../../src/stages/extract/synchronous-decompression.js";

/** What pdf.js does with a `DecompressionStream` (asyncGetBytesFromDecompressionStream): write all, close, read to the end. */
async function inflateAsPdfJsDoes(format: string, bytes: Uint8Array): Promise<Uint8Array> {
  const { readable, writable } = new SynchronousDecompressionStream(format);
  const writer = writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const reader = readable.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value!);
  }
  return Buffer.concat(chunks);
}

const content = Buffer.from("BT /F1 10 Tf 72 720 Td (The committee reviewed the figures.) Tj ET\n".repeat(400));

describe("the DecompressionStream pdf.js is given", () => {
  it("inflates what the platform's stream inflates, for each format pdf.js asks for", async () => {
    expect(Buffer.from(await inflateAsPdfJsDoes("deflate", deflateSync(content)))).toEqual(content);
    expect(Buffer.from(await inflateAsPdfJsDoes("deflate-raw", deflateRawSync(content)))).toEqual(content);
    expect(Buffer.from(await inflateAsPdfJsDoes("gzip", gzipSync(content)))).toEqual(content);
    expect(Buffer.from(await inflateAsPdfJsDoes("brotli", brotliCompressSync(content)))).toEqual(content);
    const reference = await new Response(new Blob([deflateSync(content)]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer();
    expect(Buffer.from(await inflateAsPdfJsDoes("deflate", deflateSync(content)))).toEqual(Buffer.from(reference));
  });

  it("rejects a damaged or cut stream on read, as the web stream does, so that pdf.js falls back to its own decoder", async () => {
    const whole = deflateSync(content);
    await expect(inflateAsPdfJsDoes("deflate", whole.subarray(0, whole.length >> 1))).rejects.toThrow(/unexpected end of file/);
    await expect(inflateAsPdfJsDoes("deflate", Buffer.from("not zlib at all"))).rejects.toThrow();
  });

  it("refuses a format it has not at construction, where pdf.js catches it", () => {
    expect(() => new SynchronousDecompressionStream("lzw")).toThrow(TypeError);
  });

  it("gives bytes that own their buffer, never a view into Node's shared pool that pdf.js might transfer", async () => {
    const small = Buffer.from("q 1 0 0 1 0 0 cm Q\n");
    const out = await inflateAsPdfJsDoes("deflate", deflateSync(small, { level: constants.Z_BEST_COMPRESSION }));
    expect(Buffer.from(out)).toEqual(small);
    // One chunk from the reader: inflateAsPdfJsDoes concatenated it, so look at the stream's own chunk.
    const { readable, writable } = new SynchronousDecompressionStream("deflate");
    await writable.getWriter().write(deflateSync(small));
    await writable.getWriter().close();
    const { value } = await readable.getReader().read();
    expect(value!.byteOffset).toBe(0);
    expect(value!.buffer.byteLength).toBe(small.length);
  });
});
