/**
 * Why a tool could not answer its arguments: they name something the archive does not hold, or
 * ask for what cannot be given. A code from a closed set and a sentence for the person (or
 * model) that chose the arguments; answered as a tool error (`isError`), never a protocol error,
 * so that the model reads it and can try again.
 */
export type ArgumentErrorCode =
  /** No document in the archive goes by that name. */
  | "no_document"
  /** More than one document goes by that name (an id prefix shared, a path held twice). */
  | "ambiguous_document"
  /** No chunk in the archive has that id. */
  | "no_chunk"
  /** The pages asked for are not in the document. */
  | "no_page"
  /** Arguments that cannot go together (a chunk of another document, substring with fts), or none that say what to do. */
  | "conflicting_arguments";

export class ArgumentError extends Error {
  constructor(
    readonly code: ArgumentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ArgumentError";
  }
}
