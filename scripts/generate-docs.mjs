#!/usr/bin/env node
// Writes pipeline.schema.json and the configuration reference (docs/reference.md) from the
// components' zod schemas, and chunk.schema.json from the chunk metadata's fields (run `npm run
// docs` after changing any option or metadata key). Reads the compiled dist/.
import { readFile, writeFile } from "node:fs/promises";
import { configReference, pipelineJsonSchema, spliceReference } from "../dist/pipeline/config-schema.js";
import { chunkJsonSchema } from "../dist/sinks/jsonl/chunk-schema.js";

const root = new URL("../", import.meta.url);
await writeFile(new URL("pipeline.schema.json", root), JSON.stringify(await pipelineJsonSchema(), null, 2) + "\n");
await writeFile(new URL("chunk.schema.json", root), JSON.stringify(chunkJsonSchema(), null, 2) + "\n");
const referenceUrl = new URL("docs/reference.md", root);
await writeFile(referenceUrl, spliceReference(await readFile(referenceUrl, "utf8"), await configReference()));
console.log("wrote pipeline.schema.json, chunk.schema.json and docs/reference.md");
