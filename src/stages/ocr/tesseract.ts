/**
 * Tesseract 5, run as a program: one page image in on stdin, its TSV out on stdout (word boxes
 * with block, paragraph and line ids and a confidence per word; see tsv.ts).
 *
 * `OMP_THREAD_LIMIT=1`: Tesseract's OpenMP threads spin while they wait for each other. On this
 * machine (2 cores, Tesseract 5.3.0) a 300 dpi page took 7.2 s with its default threads and
 * 2.0 s with one, so one thread per page it is; documents in parallel (the run's
 * `concurrency`) use the cores instead.
 */
import { runChild, startChild } from "./child-process.js";

export interface Recognition {
  /** Language packs, e.g. ["eng", "deu"]: Tesseract's `-l eng+deu`. */
  languages: readonly string[];
  /** The image's resolution: Tesseract reads no resolution from a PGM and would guess. */
  dpi: number;
  timeoutMs: number;
}

/** The environment every Tesseract child gets. */
export const TESSERACT_ENV = { OMP_THREAD_LIMIT: "1" } as const;

/** A Tesseract started ahead of its page (see startTesseract). */
export interface StartedTesseract {
  /** Reads one page image (any format Tesseract reads; a grey BMP here) and returns its TSV. Call once. */
  recognize(image: Uint8Array): Promise<string>;
  /** Stops a Tesseract that will not be given a page. */
  cancel(): void;
}

/**
 * Starts Tesseract for one page before the page's image is ready. Tesseract loads its language
 * models (0.2 s for eng on this machine, more for each added language) before it reads stdin, so
 * a Tesseract started while the previous page is read has its models loaded when its page comes.
 */
export function startTesseract(tesseract: string, options: Recognition): StartedTesseract {
  // --psm 3: fully automatic page segmentation, Tesseract's default, named so a change of
  // default cannot change the output.
  const args = ["stdin", "stdout", "-l", options.languages.join("+"), "--dpi", String(options.dpi), "--psm", "3", "tsv"];
  const child = startChild(tesseract, args, { env: TESSERACT_ENV });
  return {
    recognize: async (image) => (await child.run(image, options.timeoutMs)).stdout.toString("utf8"),
    cancel: () => child.cancel(),
  };
}

/** The version Tesseract reports ("5.3.0"), from the first line of `tesseract --version`. */
export async function tesseractVersion(tesseract: string): Promise<string> {
  const { stdout, stderr } = await runChild(tesseract, ["--version"], { timeoutMs: 30_000, env: TESSERACT_ENV });
  // Tesseract 4 printed its version on stderr, 5 prints it on stdout.
  const match = /tesseract\s+v?(\d+\.\d+(?:\.\d+)?\S*)/i.exec(stdout.toString("utf8") + "\n" + stderr);
  if (!match) throw new Error(`could not read the version of ${tesseract} from \`tesseract --version\``);
  return match[1]!;
}

/** The language packs Tesseract can load, from `tesseract --list-langs`. */
export async function installedLanguages(tesseract: string): Promise<Set<string>> {
  const { stdout } = await runChild(tesseract, ["--list-langs"], { timeoutMs: 30_000, env: TESSERACT_ENV });
  const lines = stdout.toString("utf8").split("\n").map((l) => l.trim());
  // The first line says where the packs are: `List of available languages in "/usr/share/…" (3):`.
  return new Set(lines.filter((l, i) => l && !(i === 0 && /^List of available languages/i.test(l))));
}
