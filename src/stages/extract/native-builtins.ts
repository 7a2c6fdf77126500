/**
 * pdf.js's legacy build carries core-js, and core-js replaces some of V8's own builtins for the
 * whole process when its feature tests find a corner V8 gets wrong: `Array.prototype.push` (array-
 * likes longer than 2^32), `JSON.stringify` and `JSON.parse` (the raw-JSON and source-text
 * proposals). The replacements are JavaScript and slow wherever they are called, in pdf.js, in
 * pagestream and in Node alike: measured on Node 20, `push` 1.6× and `JSON.stringify` 2.6–2.8×
 * slower after pdf.js was loaded.
 *
 * `withNativeBuiltins` loads pdf.js and then puts back every builtin function it replaced. What
 * core-js adds (methods V8 lacks, such as `Promise.withResolvers` on Node 20) stays. Nothing here
 * needs those corners: pdf.js's modern build runs on these very natives in Chrome.
 */

const TypedArray = Object.getPrototypeOf(Uint8Array) as object;

/** The builtins core-js may patch: constructors, their prototypes and the namespace objects. */
const HOLDERS: readonly object[] = [Object, Function, Array, String, Number, Boolean, Symbol, Promise, Map, Set, WeakMap, WeakSet, RegExp, Date, Error, ArrayBuffer, DataView, TypedArray, Uint8Array]
  .flatMap((constructor) => [constructor, (constructor as { prototype: object }).prototype])
  .concat([JSON, Math, Reflect]);

export async function withNativeBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const natives = HOLDERS.map((holder) => new Map(ownFunctions(holder)));
  try {
    return await load();
  } finally {
    HOLDERS.forEach((holder, i) => {
      for (const [key, descriptor] of natives[i]!) {
        const now = Object.getOwnPropertyDescriptor(holder, key);
        if (now?.value !== descriptor.value && now?.configurable) Object.defineProperty(holder, key, descriptor);
      }
    });
  }
}

function* ownFunctions(holder: object): Generator<[PropertyKey, PropertyDescriptor]> {
  for (const key of Reflect.ownKeys(holder)) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, key)!;
    if (typeof descriptor.value === "function" && key !== "constructor") yield [key, descriptor];
  }
}
