/**
 * How large an MCP answer may be. A client hands every answer to a language model whose context
 * is the scarce thing, so each tool says how much it returns and how to ask for the rest rather
 * than returning a whole archive or a 500-page document at once.
 */
export const ANSWER_BOUNDS = {
  /** Hits a search returns when the client names no `limit`: one screen of the web page's. */
  defaultHits: 10,
  /** Most hits one search returns; `offset` pages on. */
  maxHits: 50,
  /**
   * Most characters of a snippet. FTS5 cuts snippets at 24 tokens, ~200 characters of prose; a
   * "token" without spaces (a hash, a URL, a table of digits) can be far longer.
   */
  maxSnippetChars: 600,
  /**
   * Most characters of document text in one answer: ~5,000 tokens, about ten pages of prose,
   * small beside a model's context, large enough to read a section at once.
   */
  maxTextChars: 20_000,
  /** Most chunks on each side of the one `read_document` reads around (chunks hold ~512 tokens). */
  maxAround: 5,
  /** Documents `list_documents` returns when the client names no `limit`. */
  defaultDocuments: 20,
  /** Most documents one `list_documents` page, or the resource list, holds. */
  maxDocuments: 100,
  /** Array elements and object members a tool's arguments may hold (they are a few scalars). */
  maxArgumentElements: 100,
} as const;
