/**
 * The `Response` pdf.js is given (pdfjs-script.ts), instead of the global.
 *
 * pdf.js's top level checks `Response.prototype.bytes` to polyfill it (Node 20 has none), and
 * merely reading the global `Response` makes Node load its whole fetch implementation (undici):
 * ~50 ms of CPU in every extraction worker's start on a busy two-core machine, for a class
 * pdf.js only makes to read back what its `CompressionStream` wrote (when it saves or compresses
 * a document), which reading text never does. This stand-in already has `bytes`, so the
 * top level leaves it be, and makes the real `Response` (with `bytes`, polyfilled as pdf.js
 * would) the first time one is asked for.
 */
export function LazyResponse(...args: ConstructorParameters<typeof Response>): Response {
  const Real = globalThis.Response;
  const prototype = Real.prototype as Response & { bytes?: unknown };
  if (typeof prototype.bytes !== "function") prototype.bytes = responseBytes;
  return new Real(...args);
}

// What pdf.js's top level checks; also what it would have set on the real one.
LazyResponse.prototype.bytes = responseBytes;

async function responseBytes(this: Response): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await this.arrayBuffer());
}
