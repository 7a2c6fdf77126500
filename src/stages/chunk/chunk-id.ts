/**
 * Chunk ids: UUIDv5 (RFC 9562 §5.5, SHA-1 name-based) of `<document sha256>:<chunk index>:<uri>`
 * in pagestream's own namespace, so a re-run over the same file gives the same ids, and vector
 * stores that need UUIDs (Qdrant) take them as they are. The uri is part of the name: two
 * copies of one file are two documents, each with ids of its own, so a batch holding both
 * never repeats an id (Chroma refuses such a batch; Qdrant and Pinecone would silently keep one
 * copy), and deleting one copy withdraws only its own chunks.
 */
import { createHash } from "node:crypto";

/** pagestream's namespace for chunk ids. A fixed random UUID: changing it changes every id. */
export const CHUNK_ID_NAMESPACE = "725192a0-e57e-4d04-b209-5916e6ce43db";

const NAMESPACE_BYTES = uuidBytes(CHUNK_ID_NAMESPACE);

export function chunkId(documentId: string, uri: string, index: number): string {
  return uuidV5(`${documentId}:${index}:${uri}`, NAMESPACE_BYTES);
}

export function uuidV5(name: string, namespace: string | Buffer): string {
  const ns = typeof namespace === "string" ? uuidBytes(namespace) : namespace;
  const bytes = createHash("sha1").update(ns).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function uuidBytes(uuid: string): Buffer {
  const bytes = Buffer.from(uuid.replaceAll("-", ""), "hex");
  if (bytes.length !== 16) throw new Error(`not a UUID: ${uuid}`);
  return bytes;
}
