/**
 * A rendered page: binary PGM (P5), 8-bit grey, what pdftoppm -gray writes; pdf.js's canvas is
 * turned into the same. No compression to pay for on either side of a pipe. Tesseract is given
 * the part to read as a BMP instead (bmp.ts says why).
 */

export interface PageImage {
  /** A whole PGM file. */
  pgm: Buffer;
  width: number;
  height: number;
}

/** The image's pixels, one byte each, row by row: the PGM file after its header. */
export function pixelsOf(image: PageImage): Buffer {
  return image.pgm.subarray(image.pgm.length - image.width * image.height);
}

/** A PGM file of `grey` (one byte per pixel, row by row). */
export function encodePgm(grey: Uint8Array, width: number, height: number): PageImage {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, "ascii");
  return { pgm: Buffer.concat([header, grey]), width, height };
}

/** Reads the size from a PGM file's header; throws when it is not a binary 8-bit PGM. */
export function readPgm(pgm: Buffer): PageImage {
  const head = pgm.subarray(0, 64).toString("latin1");
  // P5, width, height and maxval, separated by white space, comments (#…) allowed between them.
  const match = /^P5(?:\s|#[^\n]*\n)+(\d+)(?:\s|#[^\n]*\n)+(\d+)(?:\s|#[^\n]*\n)+(\d+)\s/.exec(head);
  if (!match || Number(match[3]) !== 255) throw new Error(`not an 8-bit binary PGM image (starts ${JSON.stringify(head.slice(0, 16))})`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (pgm.length < match[0].length + width * height) throw new Error(`the PGM image is truncated (${pgm.length} bytes for ${width}×${height})`);
  return { pgm, width, height };
}
