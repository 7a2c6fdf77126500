/**
 * The PDFs `pagestream extract` is given: each file argument as it is, each folder argument as
 * every `*.pdf` under it (any case, at any depth, in name order), so one call reads what a shell
 * loop over `find DIR -iname '*.pdf' | sort` would.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/** One PDF to extract, or an argument that names none. */
export type ExtractInput =
  | {
      kind: "file";
      /** How messages and separators name it: the argument, or the folder argument joined with `relative`. */
      shown: string;
      /** Absolute path. */
      path: string;
      /** Where it is under its folder argument ("/" between names), for the output's name; its base name for a file argument. */
      relative: string;
    }
  | { kind: "missing"; shown: string; problem: string };

/** Every PDF the arguments name, in argument order; a file named twice (also through a folder) is read once. */
export async function extractInputs(args: readonly string[]): Promise<ExtractInput[]> {
  const inputs: ExtractInput[] = [];
  const seen = new Set<string>();
  const add = (input: ExtractInput) => {
    if (input.kind === "file" && seen.has(input.path)) return;
    if (input.kind === "file") seen.add(input.path);
    inputs.push(input);
  };
  for (const arg of args) {
    const info = await stat(arg).catch(() => undefined);
    if (info?.isFile()) add({ kind: "file", shown: arg, path: resolve(arg), relative: lastName(arg) });
    else if (info?.isDirectory()) {
      const found = await pdfsUnder(resolve(arg));
      if (found.length === 0) add({ kind: "missing", shown: arg, problem: "no PDF files in this folder" });
      for (const rel of found) add({ kind: "file", shown: join(arg, rel), path: resolve(arg, rel), relative: rel });
    } else add({ kind: "missing", shown: arg, problem: "no such file" });
  }
  return inputs;
}

/**
 * Relative paths of the `.pdf` files under `root` (case-insensitive), sorted by name at each
 * level (code-unit order, the same on every machine). Links to files are taken; links to folders
 * are not followed (one could loop back), and a folder that cannot be listed is skipped.
 */
async function pdfsUnder(root: string, prefix = ""): Promise<string[]> {
  const entries: Dirent[] = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const found: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await pdfsUnder(root, rel)));
    else if (/\.pdf$/i.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await stat(join(root, rel)).catch(() => undefined))?.isFile()))) found.push(rel);
  }
  return found;
}

function lastName(path: string): string {
  return resolve(path).split(/[\\/]/).pop()!;
}
