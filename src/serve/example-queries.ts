/**
 * Example queries for the start page, made from the archive's own words, so that each one shows
 * what the syntax does and finds something here: a "phrase" from a title, an OR of two words, a
 * prefix*, a NOT.
 *
 * Words are picked from a bounded sample (titles and first chunks of a few dozen documents, see
 * ArchiveReader.exampleMaterial): a good word is in several of the sampled documents but not in
 * most of them, and the index's vocabulary (fts5vocab) says how many chunks hold it, so words in
 * nearly every chunk are left out. Pure: the counts come in as a function.
 */

/** Words too common to make a useful example, in the languages the samples are likeliest in. */
const STOP_WORDS = new Set(
  (
    "about above after again against also among because been before being below between both could during each from further have having here into itself more most must other over same shall should some such than that their them then there these they this those through under until upon very were what when where which while with within without would your " +
    "aber alle auch aus bei dass dem den der des die durch eine einem einen einer eines für hat ist mit nach nicht noch oder sich sind über und von vor wird wurde zum zur " +
    "avec dans des est les par pour que qui sont sur une"
  ).split(" "),
);
/** A word shorter than this says little on its own (and a prefix needs 3 letters anyway). */
const MIN_WORD_LETTERS = 5;
/** Share of the archive's chunks above which a word is too common to be an example. */
const MAX_CHUNK_SHARE = 0.3;

export interface ExampleMaterial {
  title: string | null;
  text: string;
}

/**
 * Up to four example queries. `chunksHolding` gives how many chunks hold a word (undefined when
 * the archive cannot say); `chunks` is how many the archive holds.
 */
export function exampleQueries(material: readonly ExampleMaterial[], chunksHolding: (word: string) => number | undefined, chunks: number): string[] {
  const inDocuments = new Map<string, number>();
  for (const m of material) for (const w of new Set(wordsOf(`${m.title ?? ""} ${m.text}`))) inDocuments.set(w, (inDocuments.get(w) ?? 0) + 1);
  const several = material.length >= 4 ? 2 : 1;
  const good = [...inDocuments]
    .filter(([, n]) => n >= several && n <= Math.max(several, material.length * 0.6))
    .map(([w, n]) => ({ w, n, held: chunksHolding(indexed(w)) }))
    .filter(({ held }) => held === undefined || (held > 0 && held <= Math.max(1, chunks * MAX_CHUNK_SHARE)))
    .sort((a, b) => b.n - a.n || (b.held ?? 0) - (a.held ?? 0) || a.w.localeCompare(b.w))
    .map(({ w }) => w);
  const examples: string[] = [];
  const phrase = titlePhrase(material, chunksHolding);
  if (phrase) examples.push(`"${phrase}"`);
  const [a, b, c] = good.filter((w) => !phrase?.split(" ").includes(w));
  if (a && b) examples.push(`${a} OR ${b}`);
  const stem = c ?? a;
  if (stem) examples.push(`${sharedPrefix(stem, good)}*`);
  if (a && b) examples.push(`${a} NOT ${b}`);
  return examples;
}

/** Two neighbouring words of a title, both in the index: the phrase most titles share, or the first. */
function titlePhrase(material: readonly ExampleMaterial[], chunksHolding: (word: string) => number | undefined): string | undefined {
  const counts = new Map<string, number>();
  for (const m of material) {
    const words = (m.title ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    for (let i = 0; i + 1 < words.length; i++) {
      const [x, y] = [words[i]!, words[i + 1]!];
      if (x.length < 4 || y.length < 4 || STOP_WORDS.has(x) || STOP_WORDS.has(y) || /\d/.test(x + y)) continue;
      if (chunksHolding(indexed(x)) === 0 || chunksHolding(indexed(y)) === 0) continue;
      counts.set(`${x} ${y}`, (counts.get(`${x} ${y}`) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * The prefix a prefix query shows off best: the longest of at least 4 letters that `word` shares
 * with another good word (harbour, harbours → harbour), else the whole word.
 */
function sharedPrefix(word: string, others: readonly string[]): string {
  let best = word;
  let bestLength = 0;
  for (const other of others) {
    if (other === word) continue;
    let n = 0;
    while (n < word.length && n < other.length && word[n] === other[n]) n++;
    if (n >= 4 && n > bestLength) [best, bestLength] = [word.slice(0, n), n];
  }
  return best;
}

/** A word as the index keeps it (its tokenizer removes diacritics). */
function indexed(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "");
}

/** The lower-case words of a text that could be examples: letters only, long enough, not stop words. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= MIN_WORD_LETTERS && !STOP_WORDS.has(w));
}
