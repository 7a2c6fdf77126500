/**
 * How `pagestream extract` ends: with its exit code as soon as what it wrote to stdout and stderr
 * is out, by `process.exit`. A process left to end by itself first tears down its whole
 * environment and V8 heap, which only the shell (or script, or editor) that started the command
 * waits for: from its 'exit' event to its end, a median 58 ms (45–76) after a one-page extract on
 * a busy two-core machine; `process.exit` skips the teardown. The released extraction worker is
 * not waited for either way; it exits by itself once its parent is gone.
 *
 * Only for a command whose work is over when its action returns (`run --watch`, `serve` and `mcp`
 * keep running from their event loop after theirs).
 */
export function exitOnceWritten(code: number): void {
  let pending = 2;
  // A write's callback runs once everything written before it has been handed to the system
  // (or the stream has failed: a reader that closed the pipe early), so nothing is cut short.
  const written = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write("", written);
  process.stderr.write("", written);
}
