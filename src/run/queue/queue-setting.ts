/**
 * Which queue a command works with: `--queue URL` on the command line, else `queue:` in the
 * pipeline file (its other settings apply either way). No URL in either: a local run.
 */
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from "../../pipeline/queue-options.js";
import { parseRedisUrl, type RedisAddress } from "../../pipeline/redis-url.js";

export interface QueueTarget {
  address: RedisAddress;
  options: QueueOptions;
}

export type QueueChoice = { ok: true; queue?: QueueTarget } | { ok: false; problem: string };

export function chooseQueue(fromFile: QueueOptions | undefined, flag: string | undefined): QueueChoice {
  const options = fromFile ?? DEFAULT_QUEUE_OPTIONS;
  const url = flag ?? options.url;
  if (url === undefined) return { ok: true };
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) return { ok: false, problem: `${flag !== undefined ? "--queue" : "queue.url"}: ${parsed.problem}` };
  return { ok: true, queue: { address: parsed.address, options } };
}
