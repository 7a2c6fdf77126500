/**
 * Pages as a reader names them: by number, with the label printed on the page (a roman "iii", an
 * "A-4") beside it where the two differ, as the web page shows them.
 */

/** "p. 3", "pp. 2–4", with "(printed iii–v)" where the printed labels are not the numbers. */
export function pageRange([first, last]: readonly [number, number], labels: readonly string[]): string {
  const numbers = first === last ? `p. ${first}` : `pp. ${first}–${last}`;
  const plain = labels.length === last - first + 1 && labels.every((label, i) => label === String(first + i));
  if (labels.length === 0 || plain) return numbers;
  return `${numbers} (printed ${labels.length === 1 ? labels[0] : `${labels[0]}–${labels[labels.length - 1]}`})`;
}

/** " (printed iii)" after a page's number, or nothing where the label is the number. */
export function printedLabel(number: number, label: string | null): string {
  return label && label !== String(number) ? ` (printed ${label})` : "";
}
