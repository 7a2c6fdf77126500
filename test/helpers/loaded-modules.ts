/**
 * What a CLI command really loads: every module the process imports is reported by a resolve
 * hook, and the bundles (dist/cli.js and its chunks) are traced back through their source maps
 * to the files they were built from — so "does --help load zod?" has an answer even though zod
 * sits inside a chunk. On Node 22.15+ the hook runs in the process's own thread
 * (module.registerHooks); on Node 20 in the loader thread (module.register).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = mkdtempSync(join(tmpdir(), "pagestream-loads-"));
const hook = join(dir, "hook.mjs");
const preload = join(dir, "preload.mjs");
writeFileSync(hook, 'export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("IMPORT " + r.url + "\\n"); return r; }\n');
writeFileSync(
  preload,
  `import module from "node:module";\n` +
    `if (module.registerHooks) module.registerHooks({ resolve(s, c, next) { const r = next(s, c); process.stderr.write("IMPORT " + r.url + "\\n"); return r; } });\n` +
    `else module.register(${JSON.stringify(pathToFileURL(hook).href)});\n`,
);

export interface Traced {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The source files of every module loaded, node_modules paths included; node's own modules left out. */
  sources: string[];
}

export function tracedCli(args: string[], cwd = process.cwd(), env: Record<string, string> = {}): Traced {
  const r = spawnSync(process.execPath, ["--import", preload, resolve("dist/cli.js"), ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  // A package's manifest read for its version is no code of it (and only registerHooks sees those reads).
  const urls = r.stderr.split("\n").filter((l) => l.startsWith("IMPORT file:") && !l.endsWith("/package.json")).map((l) => l.slice("IMPORT ".length));
  const sources = new Set<string>();
  for (const url of urls) for (const s of sourcesOf(fileURLToPath(url))) sources.add(s);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.split("\n").filter((l) => !l.startsWith("IMPORT ")).join("\n"), sources: [...sources] };
}

function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!existsSync(map)) return [file];
  const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
  return sources.map((s) => resolve(dirname(map), s));
}
