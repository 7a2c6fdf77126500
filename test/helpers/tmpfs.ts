/**
 * Real small file systems for the tests of full and read-only disks: a tmpfs mounted where a
 * test asks (root only; elsewhere the tests that need one are skipped, saying so).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether this process may mount a tmpfs (root, and a kernel that lets it); says so when not. */
export function canMountTmpfs(what: string): boolean {
  const mountable = probe();
  if (!mountable) console.warn(`${what}: cannot mount a tmpfs here (needs root): skipped`);
  return mountable;
}

function probe(): boolean {
  if (process.getuid?.() !== 0) return false;
  const folder = join(tmpdir(), `pagestream-mount-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    execFileSync("mkdir", ["-p", folder]);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder], { stdio: "ignore" });
    execFileSync("umount", [folder]);
    return true;
  } catch {
    return false;
  } finally {
    spawnSync("rmdir", [folder]);
  }
}

/** Tmpfs mounts made by a test file, unmounted together after each test. */
export class Tmpfs {
  private readonly mounts: string[] = [];

  /** Mounts a tmpfs at `path` (made if missing) with mount `options` ("size=1m", "ro,size=64k"). */
  mount(path: string, options: string): void {
    execFileSync("mkdir", ["-p", path]);
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", path]);
    this.mounts.push(path);
  }

  unmountAll(): void {
    for (const path of this.mounts.splice(0).reverse()) spawnSync("umount", [path]);
  }
}
