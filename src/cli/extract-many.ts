/**
 * `pagestream extract` over several PDFs, or a folder of them, in one process and one capped
 * worker: what a shell loop of one call per file does, without paying Node's and pdf.js's start
 * for every file. Each file gets the same limits as one extracted alone; a worker that a file
 * kills (memory cap, timeout) is replaced for the next file by the pool.
 *
 * Without `--out-dir`, every file's output goes to stdout after a line `==> PATH <==`, with a
 * blank line before every such line but the first (as `head` and `tail` print several files);
 * `--format json` prints one JSON object a line instead (JSONL), `{"file": PATH, ...}` with the
 * document or, for a file that failed, its `error`. With `--out-dir`, each file's output is a
 * file of its own there (see output-stems.ts), written whole, and stdout stays empty.
 * A bad file is one stderr line, `PATH: code: message`; the others go on, and the exit is 3.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EXIT } from "../exit-codes.js";
import { documentTables } from "../text/tables.js";
import type { EarlyWorker } from "./early-extraction-worker.js";
import { escapeControls } from "./escape-controls.js";
import { extractInputs } from "./extract-inputs.js";
import { extractionWorker, jsonOutput, renderedOutput, say, writeTables, type ExtractFlags } from "./extract-command.js";
import { InputLinks } from "./input-links.js";
import { outputStems } from "./output-stems.js";

const EXTENSION: Record<ExtractFlags["format"], string> = { text: "txt", markdown: "md", json: "json", csv: "csv" };

export async function extractMany(args: readonly string[], flags: ExtractFlags, early?: EarlyWorker): Promise<number> {
  const links = await InputLinks.create();
  // As for one file: the worker boots and loads pdf.js while the options are checked and the folders listed.
  const worker = await extractionWorker(flags, links.folder, early);
  if (typeof worker === "number") return worker;
  try {
    const inputs = await extractInputs(args);
    const files = inputs.flatMap((input) => (input.kind === "file" ? [input] : []));
    const stemList = outputStems(files.map((f) => f.relative));
    const stems = new Map(files.map((file, k) => [file, stemList[k]!]));
    const output = flags.outDir === undefined ? new StdoutSections(flags.format === "json") : new OutDirFiles(flags.outDir);
    // The next file is handed to the worker before this one's output is written: the worker
    // reads it while the output is rendered and written, instead of waiting for it.
    const read = (input: (typeof inputs)[number] | undefined) => {
      if (input?.kind !== "file") return undefined;
      const result = links.add(input.path).then((name) => worker.process(name, input.path));
      // Awaited in turn below; until then a failure (a link that cannot be made) must not count as unhandled.
      result.catch(() => {});
      return result;
    };
    let failed = 0;
    let next = read(inputs[0]);
    for (const [k, input] of inputs.entries()) {
      const reading = next;
      next = read(inputs[k + 1]);
      if (input.kind === "missing") {
        failed++;
        say(`${input.shown}: not_found: ${input.problem}`);
        output.failed(input.shown, { code: "not_found", message: input.problem });
        continue;
      }
      const result = await reading!;
      for (const w of result.warnings) say(`${input.shown}: ${w.message}`);
      if (result.status === "failed") {
        failed++;
        say(`${input.shown}: ${result.error.code}: ${result.error.message}`);
        output.failed(input.shown, { code: result.error.code, message: result.error.message });
        continue;
      }
      const tables = flags.tables !== undefined || flags.format !== "text" ? documentTables(result.pages) : [];
      if (flags.tables !== undefined) await writeTables(flags.tables, stems.get(input)!, input.shown, tables);
      const text = flags.format === "json" ? JSON.stringify({ file: input.shown, ...jsonOutput(result, tables) }) + "\n" : renderedOutput(result, tables, flags);
      await output.done(input.shown, `${stems.get(input)!}.${EXTENSION[flags.format]}`, text);
    }
    if (flags.outDir !== undefined) say(`${inputs.length - failed} of ${inputs.length} file${inputs.length === 1 ? "" : "s"} written to ${flags.outDir}${failed ? `, ${failed} failed` : ""}`);
    return failed ? EXIT.failedDocuments : EXIT.ok;
  } finally {
    worker.release();
    links.remove();
  }
}

interface ErrorFields {
  code: string;
  message: string;
}

/** Every file's output on stdout, each after its `==> PATH <==` line, or one JSON line per file. */
class StdoutSections {
  private sections = 0;
  constructor(private readonly jsonLines: boolean) {
    // A reader that has seen enough (`| head`) closes the pipe: the batch stops there, quietly.
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE") throw err;
      process.exit(EXIT.ok);
    });
  }

  /** A JSON line says the file failed, so a reader sees every input; text sections leave it to stderr. */
  failed(file: string, error: ErrorFields): void {
    if (this.jsonLines) process.stdout.write(JSON.stringify({ file, error }) + "\n");
  }

  async done(file: string, _name: string, text: string): Promise<void> {
    // The path is escaped: a newline in a file name would otherwise forge a separator line.
    process.stdout.write(this.jsonLines ? text : `${this.sections++ ? "\n" : ""}==> ${escapeControls(file)} <==\n${text}`);
  }
}

/** Every file's output as a file of its own under the folder, written whole: a reader never sees half of one. */
class OutDirFiles {
  constructor(private readonly folder: string) {}

  failed(): void {}

  async done(_file: string, name: string, text: string): Promise<void> {
    const path = join(this.folder, name);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, text);
    await rename(partial, path);
  }
}
