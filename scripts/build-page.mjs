#!/usr/bin/env node
// Builds the web page of `pagestream serve` into dist/serve/page: its TypeScript bundled by
// esbuild into one minified ES module (app.js), its style sheet (app.css), its HTML. Part of
// `npm run build`, after tsc (which type-checks the page with src/serve/page/tsconfig.json).
import { build } from "esbuild";
import { copyFile, mkdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const source = join(root, "src/serve/page");
const out = join(root, "dist/serve/page");
await mkdir(out, { recursive: true });
const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", target: ["chrome111", "firefox111", "safari16.4"] };
await build({ ...common, entryPoints: [join(source, "main.ts")], outfile: join(out, "app.js"), format: "esm", platform: "browser" });
await build({ ...common, entryPoints: [join(source, "styles.css")], outfile: join(out, "app.css") });
for (const name of ["index.html", "icon.svg"]) await copyFile(join(source, name), join(out, name));
const sizes = await Promise.all(["index.html", "app.js", "app.css"].map(async (f) => `${f} ${(await stat(join(out, f))).size} B`));
if (process.argv.includes("--sizes")) console.log(sizes.join(", "));
