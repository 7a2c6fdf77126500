/** File names as text (folder-names.ts): valid UTF-8 unchanged, other bytes escaped, and never two names on one text. */
import { describe, expect, it } from "vitest";
import { nameText } from "../../src/sources/folder-names.js";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

/** The one name a text stands for: `\xNN` is the byte NN, everything else is its UTF-8. */
function nameOf(text: string): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (const m of text.matchAll(/\\x([0-9a-f]{2})/g)) {
    out.push(Buffer.from(text.slice(i, m.index)), Buffer.from([parseInt(m[1]!, 16)]));
    i = m.index + m[0].length;
  }
  out.push(Buffer.from(text.slice(i)));
  return Buffer.concat(out);
}

describe("file names as text", () => {
  it.each([
    ["a valid name, unchanged", bytes("März 100% \\ report.pdf"), "März 100% \\ report.pdf", true],
    ["an invalid byte, escaped", bytes("caf", [0xe9], ".pdf"), "caf\\xe9.pdf", false],
    ["a valid name that looks escaped: its backslash escaped", bytes("caf\\xe9.pdf"), "caf\\x5cxe9.pdf", false],
    ["upper-case hex does not look escaped", bytes("caf\\xE9.pdf"), "caf\\xE9.pdf", true],
    ["a backslash before an escaped byte", bytes("a\\", [0xff], ".pdf"), "a\\\\xff.pdf", false],
    ["a truncated sequence, then a valid one", bytes([0xe2, 0x82], "€.pdf"), "\\xe2\\x82€.pdf", false],
  ])("%s", (_, name, text, exact) => {
    expect(nameText(name)).toEqual({ text, exact });
    expect(nameOf(text)).toEqual(name);
  });

  it("keeps caf<0xE9>.pdf and a file literally named caf\\xe9.pdf apart", () => {
    const names = [bytes("caf", [0xe9], ".pdf"), bytes("caf\\xe9.pdf"), bytes("caf\\x5cxe9.pdf"), bytes("caf\\", [0xe9], ".pdf"), bytes("caf\\\\xe9.pdf")];
    const texts = names.map((n) => nameText(n).text);
    expect(new Set(texts).size).toBe(names.length);
    for (const [i, t] of texts.entries()) expect(nameOf(t)).toEqual(names[i]);
  });

  it("gives every short name over a small alphabet its own text, which decodes back to it", () => {
    // Every name of up to 4 bytes over the bytes that matter: the escape's characters, and bytes that are not UTF-8 alone.
    const alphabet = [0x5c, 0x78, 0x65, 0x39, 0x35, 0x63, 0xe9, 0xc3, 0xa9];
    const texts = new Set<string>();
    const wrong: string[] = [];
    let names = 0;
    const visit = (prefix: number[]) => {
      if (prefix.length > 0) {
        const name = Buffer.from(prefix);
        const { text } = nameText(name);
        texts.add(text);
        names++;
        if (!nameOf(text).equals(name)) wrong.push(`${name.toString("hex")} → ${text}`);
      }
      if (prefix.length < 4) for (const b of alphabet) visit([...prefix, b]);
    };
    visit([]);
    expect(wrong).toEqual([]);
    expect(texts.size).toBe(names);
  });
});
