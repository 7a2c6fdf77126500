/**
 * Runs `work` over the items of an async iterable with at most `concurrency` in flight, and
 * yields the results in the order of the items, so outputs are deterministic however the
 * work interleaves. The iterable is pulled only when there is room: a source of 100,000 files
 * is never listed into memory ahead of the work. Finished results wait for earlier ones in a
 * window of `concurrency × 4` items.
 */
export async function* mapOrdered<T, R>(
  items: AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const iterator = items[Symbol.asyncIterator]();
  const window = concurrency * 4;
  const pending: { promise: Promise<R>; settled: boolean }[] = [];
  let running = 0;
  let exhausted = false;
  let notify: () => void = () => {};
  let changed = new Promise<void>((resolve) => (notify = resolve));
  const onSettled = (task: { settled: boolean }) => () => {
    task.settled = true;
    running--;
    const resolve = notify;
    changed = new Promise<void>((r) => (notify = r));
    resolve();
  };
  // The pull under way, if any: a source with nothing new yet (a watcher) must not hold back
  // the results that are ready, so a pull races with the work in flight.
  let pull: Promise<IteratorResult<T>> | undefined;
  try {
    while (true) {
      while (pending[0]?.settled) yield await pending.shift()!.promise;
      if (exhausted && pending.length === 0) return;
      if (!exhausted && running < concurrency && pending.length < window) pull ??= iterator.next();
      // State was read synchronously just above, so no settlement can slip past this wait.
      const next = await Promise.race([...(pull ? [pull] : []), changed.then(() => undefined)]);
      if (next === undefined) continue;
      pull = undefined;
      if (next.done) {
        exhausted = true;
        continue;
      }
      const task = { promise: work(next.value), settled: false };
      running++;
      task.promise.then(onSettled(task), onSettled(task));
      pending.push(task);
    }
  } finally {
    // A pull still waiting would queue the return behind it: then it is not waited for.
    if (pull) void iterator.return?.();
    else await iterator.return?.();
  }
}
