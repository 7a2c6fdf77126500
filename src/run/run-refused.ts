/**
 * A run that did not start, for a reason the user can fix (another run holds the folder, the
 * source cannot do what was asked): nothing was written. The CLI exits 2 with the message.
 */
export class RunRefused extends Error {
  override name = "RunRefused";
}
