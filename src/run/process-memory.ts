import { readFileSync } from "node:fs";

/**
 * Resident memory of a process in bytes, from Linux's /proc (what the kernel charges it,
 * typed arrays and native buffers included, which V8's heap limit does not see); undefined
 * where /proc is missing or the process is gone.
 */
export function residentBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const canWatchMemory = residentBytes(process.pid) !== undefined;
