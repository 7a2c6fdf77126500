/**
 * Whether bytes look like a PDF: the `%PDF-` header, which readers accept anywhere in the first
 * kilobyte (some producers and mail gateways put junk before it). Checked before parsing, so a
 * text file named .pdf is reported as `not_pdf` instead of being handed to the parser.
 */
const SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const SEARCH_BYTES = 1024;

export function hasPdfSignature(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length, SEARCH_BYTES) - SIGNATURE.length;
  outer: for (let i = 0; i <= limit; i++) {
    for (let j = 0; j < SIGNATURE.length; j++) if (bytes[i + j] !== SIGNATURE[j]) continue outer;
    return true;
  }
  return false;
}
