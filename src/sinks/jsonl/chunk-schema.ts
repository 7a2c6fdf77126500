/**
 * chunk.schema.json: the JSON Schema (draft-07) of a chunk line in every shape, made from
 * METADATA_FIELDS so the file and the lines cannot drift apart (a test compares them and
 * validates exported lines against the file). A store that wants types declared up front
 * (LanceDB, a typed table) reads them here: integers are "integer", lists are lists of strings.
 */
import { CHUNK_SHAPES, METADATA_FIELDS, type MetadataField } from "./chunk-shapes.js";

const string = { type: "string" };
const integer = { type: "integer", minimum: 0 };
const strings = { type: "array", items: string };
const keyList = { type: "array", items: string, description: "Metadata keys LlamaIndex leaves out of this text." };

export function chunkJsonSchema(): object {
  const fields = METADATA_FIELDS as readonly MetadataField[];
  const metadataProperties = Object.fromEntries(
    fields.map((f) => [f.key, { ...(f.type === "integer" ? integer : f.type === "strings" ? strings : string), description: f.description }]),
  );
  const required = fields.filter((f) => f.empty === undefined).map((f) => f.key);
  const metadata = {
    type: "object",
    description:
      "Flat metadata: strings, integers and lists of strings, never null. Keys in this order; with stable keys (the jsonl sink's stable_keys, export --stable-keys) every key is present, an empty one as \"\", [] or \"[]\"; without, empty ones are left out.",
    properties: metadataProperties,
    required,
    additionalProperties: false,
  };
  // The shapes other than flat carry the chunk's document id and index in the metadata.
  const idsInMetadata = {
    type: "object",
    description: metadata.description,
    properties: {
      document_id: { ...string, description: "The document's id (sha256 of its bytes)." },
      chunk_index: { ...integer, description: "The chunk's 0-based position in its document." },
      ...metadataProperties,
    },
    required: ["document_id", "chunk_index", ...required],
    additionalProperties: false,
  };
  const id = { ...string, description: "The chunk's id: a UUID made from its document, uri and index, the same on every run." };
  const text = { ...string, description: "The chunk's text, in metadata.text_format." };
  const line = (description: string, properties: Record<string, object>) => ({
    type: "object",
    description,
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });
  const shapes: Record<(typeof CHUNK_SHAPES)[number], object> = {
    flat: line("shape: flat — OpenAI Batch, Cohere, Qdrant, Pinecone, Chroma, LanceDB.", {
      id,
      document_id: { ...string, description: "The document's id (sha256 of its bytes)." },
      chunk_index: { ...integer, description: "The chunk's 0-based position in its document." },
      text,
      metadata: { $ref: "#/definitions/metadata" },
    }),
    langchain: line("shape: langchain — LangChain.js: new Document(line).", { pageContent: text, metadata: { $ref: "#/definitions/metadata_with_ids" }, id }),
    langchain_python: line("shape: langchain_python — Python LangChain: Document(**line).", { page_content: text, metadata: { $ref: "#/definitions/metadata_with_ids" }, id }),
    llamaindex: line("shape: llamaindex — LlamaIndex.TS: new Document(line).", {
      id_: id,
      text,
      metadata: { $ref: "#/definitions/metadata_with_ids" },
      excludedEmbedMetadataKeys: keyList,
      excludedLlmMetadataKeys: keyList,
    }),
  };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "pagestream chunk line",
    description: "One line of a chunk file (the jsonl sink with records: chunks, or pagestream export), in any of its shapes. Generated from src/sinks/jsonl/chunk-shapes.ts.",
    oneOf: CHUNK_SHAPES.map((shape) => ({ $ref: `#/definitions/${shape}` })),
    definitions: { ...shapes, metadata, metadata_with_ids: idsInMetadata },
  };
}
