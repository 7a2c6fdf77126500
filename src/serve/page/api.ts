/**
 * The server's JSON API, as the page calls it: an answer's snake_case keys become the camelCase
 * of api-types.ts, an error answer an ApiFailure with the server's sentence.
 */
import { fromWireKeys } from "../../core/wire-keys.js";
import type { ApiError } from "../api-types.js";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as T | ApiError | undefined;
  if (!response.ok) {
    const error = (body as ApiError | undefined)?.error;
    throw new ApiFailure(response.status, error?.code ?? "http_error", error?.message ?? `the server answered ${response.status} ${response.statusText}`);
  }
  return fromWireKeys<T>(body);
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return answer<T>(await fetch(url, { headers: { accept: "application/json" }, ...(signal ? { signal } : {}) }));
}

export async function postPdf<T>(url: string, body: Blob): Promise<T> {
  return answer<T>(await fetch(url, { method: "POST", headers: { "content-type": "application/pdf", accept: "application/json" }, body }));
}

/** Where a document's original is served (as an attachment: the browser never shows it itself). */
export function originalUrl(documentId: string): string {
  return `/api/documents/${encodeURIComponent(documentId)}/original`;
}

/** The bytes of a document's original, or the server's reason why not. */
export async function getOriginal(documentId: string): Promise<Uint8Array> {
  const response = await fetch(originalUrl(documentId));
  if (!response.ok) await answer(response);
  return new Uint8Array(await response.arrayBuffer());
}
