/**
 * The pipeline.yaml that `pagestream init <folder>` writes: the default pipeline (the stages
 * `pagestream extract` runs, then chunks into out/chunks.jsonl and a searchable
 * out/archive.sqlite) over the user's folder, every line a person may want to change commented.
 * Pure: the caller computes the folder's path and the schema's reference from where the file
 * will be written, so both hold where it is.
 */
import { DEFAULT_STAGES } from "./default-pipeline.js";

export interface InitialPipeline {
  /** The PDF folder as the pipeline names it: relative to the pipeline file's folder, or absolute. */
  sourcePath: string;
  /** The editor's schema for completion and hovers: a path relative to the file, or a file:// URL. */
  schema: string;
}

export function initialPipelineText({ sourcePath, schema }: InitialPipeline): string {
  const stages = DEFAULT_STAGES.map((s) => `  - type: ${s.type}\n`).join("");
  return `# yaml-language-server: $schema=${schema}
#
# Written by \`pagestream init\`: the PDFs under ${sourcePath} → chunks ready to embed in
# out/chunks.jsonl and a searchable archive in out/archive.sqlite.
#   pagestream validate --env   # check this file and what it will use
#   pagestream run              # ingest (again: only what changed since the last run)
#   pagestream search "words"   # or: pagestream serve, a web page over the archive
# Relative paths are relative to this file's folder.

# Documents extracted at once (default: one per CPU core), and the limits that stop a hostile
# file without stopping the run (it fails with a reason in out/failed.jsonl).
# concurrency: 2
timeout_seconds: 300      # for each 1,000 pages of a document
max_worker_memory_mb: 1024
max_pages: 20000
# The run state (what is done, so the next run skips it), run-summary.json and failed.jsonl.
run_folder: out

source:
  type: folder
  path: ${JSON.stringify(sourcePath)}
  include: ["**/*.pdf"]    # case-insensitive: .PDF too
  # exclude: ["**/drafts/**"]
  # watch: true        # keep running and ingest files as they arrive (or: pagestream run --watch)

# The stages \`pagestream extract\` runs, in the same order; then chunking.
stages:
${stages}  # Scanned pages: read them with Tesseract 5 (apt-get install -y tesseract-ocr), after flag-scans.
  # OCR takes seconds per page: raise timeout_seconds.
  # - type: ocr
  #   languages: [eng]
  - type: chunk
    text_format: markdown   # headings, lists, code and tables marked up (plain: the text as extract prints it)
    max_tokens: 512
    overlap_tokens: 64

sinks:
  - type: jsonl            # chunk records (records: pages for page records)
    path: out/chunks.jsonl
    prune: true            # a tombstone for a file deleted from the folder
  - type: sqlite           # the archive that pagestream search, serve and mcp read
    path: out/archive.sqlite
    prune: true
`;
}
