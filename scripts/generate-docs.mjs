#!/usr/bin/env node
// Writes pipeline.schema.json and the README's configuration reference from the components'
// zod schemas, and chunk.schema.json from the chunk metadata's fields (run `npm run docs` after
// changing any option or metadata key). Reads the compiled dist/.
import { readFile, writeFile } from "node:fs/promises";
import { configReference, pipelineJsonSchema, spliceReadme } from "../dist/pipeline/config-schema.js";
import { chunkJsonSchema } from "../dist/sinks/jsonl/chunk-schema.js";

const root = new URL("../", import.meta.url);
await writeFile(new URL("pipeline.schema.json", root), JSON.stringify(await pipelineJsonSchema(), null, 2) + "\n");
await writeFile(new URL("chunk.schema.json", root), JSON.stringify(chunkJsonSchema(), null, 2) + "\n");
const readmeUrl = new URL("README.md", root);
await writeFile(readmeUrl, spliceReadme(await readFile(readmeUrl, "utf8"), await configReference()));
console.log("wrote pipeline.schema.json, chunk.schema.json and README.md's configuration reference");
