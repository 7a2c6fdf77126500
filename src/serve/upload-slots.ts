/**
 * How many uploads the server takes at once. Each one in flight holds a file in the upload
 * folder (up to the upload limit) and, for "Extract", a turn of the one extraction worker; an
 * upload that finds every slot taken is refused at once (503 with Retry-After) instead of
 * waiting, so neither disk nor memory grows with the number of uploads sent, and a client
 * learns to come back instead of holding a connection open.
 *
 * Not a queue library (p-limit, p-queue): those make the caller wait, and a waiting upload is
 * exactly the connection that should not be held. A slot is kept from before the body is read
 * until the answer is made, the extraction included.
 */
/**
 * Uploads taken at once: one for the extraction worker (there is one) and one arriving or
 * waiting its turn, so the worker never idles between two files; with the 100 MiB default
 * limit, at most 200 MiB in the upload folder.
 */
export const UPLOADS_AT_ONCE = 2;

export class UploadSlots {
  private taken = 0;

  constructor(readonly size: number) {}

  /** A slot's release (call it once), or undefined when every slot is taken. */
  take(): (() => void) | undefined {
    if (this.taken >= this.size) return undefined;
    this.taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken--;
    };
  }
}
