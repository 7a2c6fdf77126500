/**
 * Finding the processes a test started, however deep: the test puts a marker (NAME=value) in
 * their environment, and /proc says which running programs carry it.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** A fresh marker, NAME=value. */
export function newMarker(name = "PAGESTREAM_OCR_TEST"): string {
  return `${name}=${randomUUID()}`;
}

/** The marker as an environment entry. */
export function markerEnv(marker: string): Record<string, string> {
  const at = marker.indexOf("=");
  return { [marker.slice(0, at)]: marker.slice(at + 1) };
}

/** Pids and states of running `program` processes whose environment holds `marker`. */
export function markedProcesses(program: string, marker: string): { pid: number; state: string }[] {
  const found: { pid: number; state: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== program) continue;
      if (!readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(marker)) continue;
      found.push({ pid: Number(entry), state: /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${entry}/stat`, "utf8"))![1]! });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
