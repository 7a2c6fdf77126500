/**
 * What a batch names each input's outputs (`--out-dir` files, `--tables` CSVs): its relative
 * path without `.pdf` (`report.pdf` → `report`, `2024/q1.pdf` → `2024/q1`), the format's
 * extension added by the caller. Two inputs never share a stem: a later one that would land on
 * a stem already taken gets `-2`, `-3`, …. Stems are compared without case, so the files stay
 * apart on a case-insensitive file system (macOS, Windows) too.
 */
export function outputStems(relatives: readonly string[]): string[] {
  const taken = new Set<string>();
  return relatives.map((rel) => {
    const stem = rel.replace(/\.pdf$/i, "");
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? stem : `${stem}-${n}`;
      if (taken.has(candidate.toLowerCase())) continue;
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  });
}
