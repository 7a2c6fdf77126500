/** Polling for a condition in tests that watch processes, files or servers. */

/** Waits until `condition` holds, looking every 50 ms; fails after `seconds` naming `what`. */
export async function waitFor<T>(what: string, condition: () => T | undefined | false | Promise<T | undefined | false>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${seconds} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
