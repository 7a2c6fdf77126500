/**
 * pdf.js 6 hands font and pattern data to the renderer with
 * `ArrayBuffer.prototype.transferToFixedLength` (ES2024, Node 22+). On Node 20 the call throws
 * inside the worker-side operator list: text extraction never meets it, but rendering a page
 * whose font was already sent for an earlier page waits forever for the font (and
 * `getOperatorList` drops the font's operators). This adds the method on Node 20: a copy of
 * the first `length` bytes (the source is not detached, which pdf.js never relies on); on
 * Node 22 and later the feature check makes it do nothing. Imported for its effect, before
 * pdf.js (see pdfjs-loader.ts).
 */
interface TransferableBuffer {
  transferToFixedLength?: (length?: number) => ArrayBuffer;
}

if (typeof (ArrayBuffer.prototype as TransferableBuffer).transferToFixedLength !== "function") {
  Object.defineProperty(ArrayBuffer.prototype, "transferToFixedLength", {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function transferToFixedLength(this: ArrayBuffer, length: number = this.byteLength): ArrayBuffer {
      const out = new ArrayBuffer(length);
      new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return out;
    },
  });
}

export {};
