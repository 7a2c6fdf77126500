/**
 * `pagestream init <folder>`: writes a commented pipeline.yaml (in the current folder, or where
 * --pipeline says) that reads the PDFs under <folder>. Both references in it hold where the file
 * is written: the folder as a path relative to the file (absolute when it lies above it), and
 * the editor's schema as this installation's pipeline.schema.json (relative beside a clone,
 * else a file:// URL to the installed package's copy).
 */
import { stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { EXIT } from "../exit-codes.js";
import { PACKAGE_ROOT } from "../package-files.js";
import { initialPipelineText } from "../pipeline/initial-pipeline.js";

export interface InitFlags {
  /** The pipeline file to write (default: pipeline.yaml in the current folder). */
  pipeline: string;
  /** Replace a pipeline file that exists. */
  force?: boolean;
}

/** Where the written pipeline's sinks and run state go, beside the file (as initialPipelineText writes them). */
const OUTPUT_FOLDER = "out";

export async function initCommand(folder: string, flags: InitFlags): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`pagestream init: ${message}\n`);
    return EXIT.usage;
  };
  const root = resolve(folder);
  const info = await stat(root).catch(() => undefined);
  if (!info) return fail(`${folder}: the folder does not exist (${root})`);
  if (!info.isDirectory()) return fail(`${folder}: not a folder; give the folder that holds the PDFs`);

  const file = resolve(flags.pipeline);
  const home = dirname(file);
  const out = join(home, OUTPUT_FOLDER);
  if (out === root || out.startsWith(root + sep)) {
    return fail(
      `${flags.pipeline} would write its outputs (${OUTPUT_FOLDER}/) inside ${folder}, the folder it reads: a run would read what it writes. ` +
        `Write it in a folder of its own, e.g. mkdir ../pdf-search && cd ../pdf-search && pagestream init ${relative(join(home, "..", "pdf-search"), root) || "."}`,
    );
  }

  const below = relative(home, root);
  const sourcePath = below.startsWith("..") ? root : below;
  const schemaFile = join(PACKAGE_ROOT, "pipeline.schema.json");
  const schemaBelow = relative(home, schemaFile);
  const schema = schemaBelow.startsWith("..") ? pathToFileURL(schemaFile).href : `./${schemaBelow.split(sep).join("/")}`;

  try {
    await writeFile(file, initialPipelineText({ sourcePath, schema }), { flag: flags.force ? "w" : "wx" });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return fail(`${flags.pipeline} exists already: edit it, or replace it with --force`);
    return fail(`cannot write ${flags.pipeline}: ${(err as Error).message}`);
  }
  process.stdout.write(
    `wrote ${flags.pipeline}: the PDFs under ${sourcePath} → ${OUTPUT_FOLDER}/chunks.jsonl and ${OUTPUT_FOLDER}/archive.sqlite\n` +
      `next: pagestream run${flags.pipeline === "pipeline.yaml" ? "" : " " + flags.pipeline}, then pagestream search "some words" (or pagestream serve)\n`,
  );
  return EXIT.ok;
}
