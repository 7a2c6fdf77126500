#!/usr/bin/env node
// Writes pipeline.schema.json and the README's configuration reference from the components'
// zod schemas (run `npm run docs` after changing any option). Reads the compiled dist/.
import { readFile, writeFile } from "node:fs/promises";
import { configReference, pipelineJsonSchema, spliceReadme } from "../dist/pipeline/config-schema.js";

const root = new URL("../", import.meta.url);
await writeFile(new URL("pipeline.schema.json", root), JSON.stringify(await pipelineJsonSchema(), null, 2) + "\n");
const readmeUrl = new URL("README.md", root);
await writeFile(readmeUrl, spliceReadme(await readFile(readmeUrl, "utf8"), await configReference()));
console.log("wrote pipeline.schema.json and README.md's configuration reference");
