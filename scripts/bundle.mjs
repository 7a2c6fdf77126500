#!/usr/bin/env node
// The second half of `npm run build`: tsc has written dist/ (modules, source maps, the plugin
// API); this writes the two entry points a user's command starts, dist/cli.js and the
// extraction worker (dist/run/extraction-worker.cjs), again as one file each. Why: a command that starts from
// hundreds of small modules (rxjs, zod and yaml bring most of them) spends more time opening
// and compiling them than pdf.js needs to read a one-page PDF. Lazily imported modules stay
// lazy (chunks of their own), so `--help` still never loads a component.
//
// Not bundled: what has native code or files of its own to find (pdf.js with its fonts and
// CMaps, better-sqlite3, @napi-rs/canvas, fs-native-extensions' file locks), what is large and loaded only by the components
// that need it (the AWS SDK, gpt-tokenizer's encodings, the English word list, chokidar), and
// pino, whose transports start worker threads from its own files, fastify (`pagestream
// serve` only), whose schema compilers write code that requires their own runtime files, and
// bullmq with ioredis (the queue commands only; bullmq's msgpackr looks for a native addon).
import { build } from "esbuild";
import { chmod, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pdfjsPatches } from "./pdfjs-patches.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * rxjs's package exports name its CommonJS build first for node, which esbuild cannot trim: the
 * whole library would be bundled. Its ES module build (side-effect free) keeps only the
 * operators pagestream uses.
 */
const rxjsAsModules = {
  name: "rxjs-as-modules",
  setup(b) {
    b.onResolve({ filter: /^rxjs$/ }, () => ({ path: join(root, "node_modules/rxjs/dist/esm/index.js") }));
  },
};

/**
 * zod's `z` namespace re-exports every one of its 50 message locales (`z.locales`), so a bundle
 * that uses `z` keeps them all: 580 KB of JavaScript that the command and every extraction worker
 * compiled at start (~40 ms each). pagestream's messages are English, which zod sets up from its
 * own `en` module; the namespace keeps that one locale.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', resolveDir: join(root, "node_modules/zod/v4/locales") }));
  },
};

const NOT_BUNDLED = [
  "pdfjs-dist",
  "pdfjs-dist/*",
  "better-sqlite3",
  "@napi-rs/canvas",
  "fs-native-extensions",
  "@aws-sdk/*",
  "gpt-tokenizer",
  "gpt-tokenizer/*",
  "an-array-of-english-words",
  "chokidar",
  "pino",
  "fastify",
  "bullmq",
  "ioredis",
];

// Chunk names carry a content hash: without this, every build would leave the last one's chunks
// behind, and `npm pack` would ship them.
await rm(join(root, "dist/chunks"), { recursive: true, force: true });

// What both entry points are built with.
const common = {
  absWorkingDir: root,
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20.19",
  // Node has had Unicode property escapes (`/\p{Lu}/u`) since 10, but esbuild 0.28's table
  // wants a newer Node and rewrites each such literal into `new RegExp(…)`: inside a function that
  // builds the regex again on every call (a character width, a line-end check, per character or
  // per line). Written as literals, they are compiled once.
  supported: { "regexp-unicode-property-escapes": true },
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
  external: NOT_BUNDLED,
  plugins: [rxjsAsModules, zodEnglishOnly],
};

await build({
  ...common,
  entryPoints: { cli: "src/cli.ts" },
  // Lazily imported modules (each command, each component) become chunks of their own, loaded
  // when first imported: `--help` reads the command line's chunk, not the components'.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  // Bundled CommonJS (commander) calls require() for node's own modules.
  banner: { js: 'import { createRequire as __pagestreamCreateRequire } from "node:module"; const require = __pagestreamCreateRequire(import.meta.url);' },
});

// The extraction worker, as one CommonJS file, dist/run/extraction-worker-main.cjs: not an ES
// module, because the worker of a one-page `pagestream extract` is mostly start-up, and Node 20's
// ES module loader was ~0.09 s of it (Node 22+ keeps a CommonJS module's code in its compile
// cache as well). Its `import.meta.url` (how pagestream finds its files and pdf.js) is the file's
// URL. The process starts from dist/run/extraction-worker.cjs, which runs it with a code cache
// (src/run/extraction-worker-start.ts).
const worker = {
  ...common,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  define: { "import.meta.url": "__importMetaUrl" },
  banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};
await build({ ...worker, entryPoints: { "run/extraction-worker-main": "src/run/extraction-worker.ts" } });
await build({ ...worker, entryPoints: { "run/extraction-worker": "src/run/extraction-worker-start.ts" } });

// The package's bin: `npx pagestream` in a checkout runs the file itself, through its #! line.
await chmod(join(root, "dist/cli.js"), 0o755);

// pdf.js as one script with a code cache of pagestream's own (src/stages/extract/pdfjs-script.ts):
// its minified API and parser, each an ES module, written as one CommonJS-shaped function body
// that `vm.Script` can compile with cached data (an ES module cannot be, on Node 20). Its
// `import.meta.url` (which it uses to find @napi-rs/canvas) becomes a parameter that the loader
// sets to the package's own pdf.min.mjs, the free name `DecompressionStream` resolves to the
// loader's parameter of that name, not the global, and both carry pagestream's patches
// (scripts/pdfjs-patches.mjs: among them, the API loads @napi-rs/canvas only when it renders).
await build({
  absWorkingDir: root,
  stdin: {
    contents: 'export * from "pdfjs-dist/legacy/build/pdf.min.mjs";\nimport "pdfjs-dist/legacy/build/pdf.worker.min.mjs";\n',
    resolveDir: root,
    sourcefile: "pdfjs-script-entry.mjs",
  },
  outfile: "dist/stages/extract/pdfjs-script.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20.19",
  minifyWhitespace: true,
  define: { "import.meta.url": "__pdfjsModuleUrl" },
  plugins: [pdfjsPatches],
  logLevel: "warning",
});
