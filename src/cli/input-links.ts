/**
 * A temporary folder of links to a batch's inputs, for its one worker to read them through. A
 * worker's folder source is rooted at one folder and reads only what is under it; the inputs of
 * one call can be anywhere (`extract ~/a.pdf /mnt/b.pdf`), so each is linked in under a number
 * of its own. The worker reads the linked file; results still name the real path.
 */
import { rmSync } from "node:fs";
import { mkdtemp, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIGNAL_EXIT } from "../exit-codes.js";

export class InputLinks {
  private count = 0;
  private constructor(readonly folder: string) {}

  static async create(): Promise<InputLinks> {
    const links = new InputLinks(await mkdtemp(join(tmpdir(), "pagestream-extract-")));
    // Removed on every way out, an interrupt too (a signal ends the process without "exit"):
    // it holds only links, never anyone's files.
    process.once("exit", () => links.remove());
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(SIGNAL_EXIT[signal]));
    return links;
  }

  /** Links `path` in; the name the worker reads it under. */
  async add(path: string): Promise<string> {
    const name = `${++this.count}.pdf`;
    await symlink(path, join(this.folder, name));
    return name;
  }

  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
