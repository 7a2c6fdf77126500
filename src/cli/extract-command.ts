/**
 * `pagestream extract`: one PDF through the default pipeline's stages, text to stdout (what the
 * corpus scorer reads), warnings and errors to stderr.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { DEFAULT_STAGES } from "../pipeline/default-pipeline.js";
import { documentText } from "../text/document-text.js";
import type { Stage } from "../core/plugin.js";
import type { DocumentResult, PageRecord } from "../core/records.js";
import { loadSpec } from "../pipeline/registry.js";
import { processFile } from "../run/process-document.js";
import { EXIT } from "../exit-codes.js";

export interface ExtractFlags {
  mode: "reflow" | "preserve";
  pages?: string;
  markers?: boolean;
  format: "text" | "json";
  password?: string;
  /** commander's `--no-strip-furniture`. */
  stripFurniture?: boolean;
  /** commander's `--no-dehyphenate`. */
  dehyphenate?: boolean;
}

export async function extractCommand(file: string, flags: ExtractFlags): Promise<number> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) {
    process.stderr.write(`pagestream: ${file}: no such file\n`);
    return EXIT.usage;
  }
  const stages: Stage[] = [];
  const skipped = new Set([...(flags.stripFurniture === false ? ["strip-furniture"] : []), ...(flags.dehyphenate === false ? ["dehyphenate"] : [])]);
  for (const { type } of DEFAULT_STAGES.filter((s) => !skipped.has(s.type))) {
    const spec = await loadSpec("stage", type, process.cwd());
    const overrides = type === "extract" ? extractOverrides(flags) : {};
    const parsed = spec.options.safeParse(overrides);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) process.stderr.write(`pagestream: --${String(issue.path[0] ?? type)}: ${issue.message}\n`);
      return EXIT.usage;
    }
    stages.push(await spec.create(parsed.data, { baseDir: process.cwd(), warn: (m) => process.stderr.write(`pagestream: ${m}\n`) }));
  }
  const result = await processFile(resolve(file), stages);
  for (const w of result.warnings) process.stderr.write(`pagestream: ${file}: ${w.message}\n`);
  if (result.status === "failed") {
    process.stderr.write(`pagestream: ${file}: ${result.error.code}: ${result.error.message}\n`);
    return EXIT.failedDocuments;
  }
  process.stdout.write(flags.format === "json" ? JSON.stringify(jsonOutput(result), null, 2) + "\n" : textOutput(result.pages, flags.markers ?? false));
  return EXIT.ok;
}

function extractOverrides(flags: ExtractFlags): Record<string, unknown> {
  return {
    mode: flags.mode,
    ...(flags.pages !== undefined ? { pages: flags.pages } : {}),
    ...(flags.password !== undefined ? { password: flags.password } : {}),
  };
}

/**
 * Body text, paragraphs and pages separated by one blank line (a paragraph running over a page
 * break reads whole); with markers every page is labelled, empty pages too.
 */
export function textOutput(pages: readonly PageRecord[], markers: boolean): string {
  if (markers) return pages.map((p) => `--- Page ${p.number} ---\n${p.text ? p.text + "\n" : ""}`).join("");
  const { text } = documentText(pages);
  return text ? text + "\n" : "";
}

function jsonOutput(result: Extract<DocumentResult, { status: "ok" }>): object {
  return {
    document: result.document,
    pages: result.pages.map(({ type: _type, documentId: _id, uri: _uri, number, text, ...fields }) => ({ number, text, ...fields })),
    warnings: result.warnings,
  };
}
