/**
 * The `DecompressionStream` pdf.js is given (pdfjs-script.ts): zlib's synchronous inflate behind
 * the one shape pdf.js uses it in (write the whole stream, close, read until done).
 *
 * pdf.js 6 inflates every Flate stream of 1 KiB or more, content streams included, through the
 * platform's `DecompressionStream`. In Node that is zlib on the libuv thread pool behind web
 * streams: per stream a round trip through the event loop and a dozen stream objects. Measured on
 * the perf corpus (804 pages), the extraction thread sat idle 6.6 % of its time waiting for it,
 * and the web-streams machinery cost as much again; inflating in place took 8 % off the extract
 * stage's wall time, with the same bytes out.
 *
 * It fails where the web stream fails (a damaged or truncated stream), and pdf.js then falls back
 * to its own JavaScript decoder, as it did before. A stream that would inflate past
 * `MAX_INFLATED_BYTES` is refused the same way: pdf.js's decoder grows its buffer step by step,
 * which the worker's memory watch can stop, where one synchronous call could not be.
 *
 * Not a general stream: `pipeThrough`, back-pressure and partial reads are not there, which is why
 * it is handed to pdf.js alone instead of replacing the global.
 */
import { brotliDecompressSync, inflateRawSync, inflateSync, gunzipSync } from "node:zlib";

/** Larger than any page's content stream or a 600 dpi A4 colour scan (~100 MiB). */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

type Inflate = (input: Uint8Array, options: { maxOutputLength: number }) => Buffer;

const INFLATE: Record<string, Inflate> = {
  deflate: inflateSync,
  "deflate-raw": inflateRawSync,
  gzip: gunzipSync,
  brotli: brotliDecompressSync,
};

export class SynchronousDecompressionStream {
  readonly writable: { getWriter(): { write(chunk: Uint8Array): Promise<void>; close(): Promise<void> } };
  readonly readable: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } };

  constructor(format: string) {
    const inflate = INFLATE[format];
    // As the web stream does, so that pdf.js takes its own decoder for a format this has not.
    if (!inflate) throw new TypeError(`DecompressionStream: unsupported format ${JSON.stringify(format)}`);
    const input: Uint8Array[] = [];
    let output: Uint8Array | undefined;
    let failure: unknown;
    let read = false;
    const finish = () => {
      if (output || failure) return;
      try {
        const bytes = inflate(input.length === 1 ? input[0]! : Buffer.concat(input), { maxOutputLength: MAX_INFLATED_BYTES });
        // A small Buffer is a view into Node's shared pool; pdf.js may transfer what it is given.
        output = bytes.byteLength === bytes.buffer.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
      } catch (err) {
        failure = err;
      }
      input.length = 0;
    };
    this.writable = {
      getWriter: () => ({
        write: async (chunk) => void input.push(chunk),
        close: async () => finish(),
      }),
    };
    this.readable = {
      getReader: () => ({
        read: async () => {
          finish();
          if (failure) throw failure;
          if (read) return { done: true };
          read = true;
          return { done: false, value: output };
        },
      }),
    };
  }
}
