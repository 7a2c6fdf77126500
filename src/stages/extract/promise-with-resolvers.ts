/**
 * pdf.js 6 calls `Promise.withResolvers` (ES2024, Node 22+) and its legacy build does not bring
 * it. On Node 20 this adds it, to the letter of the spec (it resolves with the constructor it
 * is called on, so subclasses work); on Node 22 and later the feature check makes it do nothing.
 * Imported for its effect, before pdf.js (see pdfjs-loader.ts).
 */
interface WithResolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(this: PromiseConstructor): WithResolvers<T> {
      let resolve!: WithResolvers<T>["resolve"];
      let reject!: WithResolvers<T>["reject"];
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
