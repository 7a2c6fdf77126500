/**
 * Include and exclude globs, shared by the sources so that a pattern means the same in a folder
 * and under a bucket prefix: paths are relative to the source's root, `/`-separated; include
 * ignores case and skips dot files; an exclude that matches a folder (`drafts`, `drafts/`, a
 * pattern ending in `/**`) skips everything under it.
 */
import picomatch from "picomatch";
import { z } from "zod";

/** The `include` and `exclude` options, described relative to the source's root (`path`, `prefix`). */
export function globOptions(root: string) {
  return {
    include: z
      .array(z.string().min(1))
      .default(["**/*.pdf"])
      .describe(`Glob patterns (relative to \`${root}\`, case-insensitive) of the files to take.`),
    exclude: z.array(z.string().min(1)).default([]).describe("Glob patterns of files and folders to skip, even when included."),
  };
}

export interface PathFilter {
  /** True when an entry (a file or a folder) is excluded: a folder is then not entered. */
  excludes(path: string): boolean;
  /** True when a file matches the include globs (its folders, walked on the way, were not excluded). */
  includes(path: string): boolean;
  /**
   * True when a file at this full path is taken, the folders above it included: for a flat
   * listing (object keys), where no folder was walked and skipped on the way.
   */
  takesPath(path: string): boolean;
}

export function pathFilter(globs: { include: string[]; exclude: string[] }): PathFilter {
  const include = picomatch(globs.include, { nocase: true, dot: false });
  const exclude = globs.exclude.length ? picomatch(globs.exclude, { nocase: true, dot: true }) : () => false;
  const excludes = (path: string) => exclude(path) || exclude(path + "/");
  return {
    excludes,
    includes: include,
    takesPath(path) {
      for (let slash = path.indexOf("/"); slash > 0; slash = path.indexOf("/", slash + 1)) {
        if (excludes(path.slice(0, slash))) return false;
      }
      return !excludes(path) && include(path);
    },
  };
}
