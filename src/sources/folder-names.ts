/**
 * A file name (bytes) as the text a uri, a log line and the globs use — one-to-one, so two files
 * never share a uri. A valid UTF-8 name is its own text; a byte that is not part of a valid
 * UTF-8 sequence is written `\xNN` (`caf\xe9.pdf`). The escape would be ambiguous if a name
 * could hold it literally (a file really named `caf\xe9.pdf` and `caf<0xE9>.pdf` took turns
 * under one uri, each run dropping the other): so a backslash that would read as an escape,
 * one followed by `x` and two lower-case hex digits, is itself written `\x5c`. Every other name
 * — almost all of them — is unchanged, and the text decodes back to exactly one name.
 */

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A literal backslash that would read as the start of `\xNN`. */
const LOOKS_ESCAPED = /\\(?=x[0-9a-f]{2})/g;

/**
 * The text of a file name. `exact` is true when the text is the name itself (its UTF-8 bytes
 * are the name's), so the file can be opened by the text; otherwise it must be opened by its bytes.
 */
export function nameText(bytes: Uint8Array): { text: string; exact: boolean } {
  let whole: string | undefined;
  try {
    whole = UTF8.decode(bytes);
  } catch {
    // Not valid UTF-8: runs of valid sequences, and the bytes between them escaped.
  }
  if (whole !== undefined) {
    const text = literal(whole);
    return { text, exact: text === whole };
  }
  let text = "";
  let run = 0; // start of the current run of valid sequences
  const endRun = (end: number) => {
    if (end > run) text += literal(Buffer.from(bytes.subarray(run, end)).toString("utf8"));
  };
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    endRun(i);
    text += escapeByte(bytes[i]!);
    i++;
    run = i;
  }
  endRun(bytes.length);
  return { text, exact: false };
}

/** Valid text as it stands in a name's text: only a backslash that would read as an escape changes. */
function literal(valid: string): string {
  return valid.replace(LOOKS_ESCAPED, escapeByte(0x5c));
}

function escapeByte(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, "0")}`;
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  try {
    UTF8.decode(bytes.subarray(i, i + length));
    return length;
  } catch {
    return 0;
  }
}
