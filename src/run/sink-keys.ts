/**
 * The key the run state knows each sink by: its type, version and options. With other options,
 * or a new version of its format, it is another sink, which starts empty and gets every
 * document. `pagestream export` finds a sink's last checkpoint by the same key.
 */
import type { ComponentConfig } from "../pipeline/config.js";
import { hash } from "./identity.js";

export function sinkKeys(sinks: readonly Pick<ComponentConfig<"sink">, "type" | "spec" | "options">[]): string[] {
  const keys: string[] = [];
  for (const s of sinks) {
    const version = s.spec.version ?? 1;
    const base = `${s.type}:${hash(version === 1 ? s.options : { version, options: s.options }).slice(0, 16)}`;
    // Two sinks with the same type and options (two archives in one file are refused, but a module may allow it).
    let key = base;
    for (let n = 2; keys.includes(key); n++) key = `${base}#${n}`;
    keys.push(key);
  }
  return keys;
}
