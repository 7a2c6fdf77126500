/**
 * SQLite's variable-length integers, as FTS5 writes them in its own records (the averages record
 * and each row's docsize): big-endian groups of 7 bits, the high bit set on every byte but the
 * last, and a ninth byte that carries 8 bits.
 */

/** The first `count` varints of `bytes` (fewer when the bytes end first). */
export function readVarints(bytes: Uint8Array, count: number): number[] {
  const values: number[] = [];
  let at = 0;
  while (values.length < count && at < bytes.length) {
    let value = 0;
    for (let i = 0; i < 9 && at < bytes.length; i++) {
      const byte = bytes[at++]!;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if (byte < 0x80) break;
    }
    values.push(value);
  }
  return values;
}
