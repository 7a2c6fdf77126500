/**
 * Token counts for the chunk stage, by gpt-tokenizer: the byte-pair encodings OpenAI's models
 * use, shipped inside the npm package (nothing is downloaded). The encoding is imported when a
 * chunk stage is created, never when this module is, so `pagestream --help` and `validate` do
 * not load it.
 *
 * Text that spells a special token (`<|endoftext|>`) is counted as the plain text it is: a PDF
 * may quote one, and gpt-tokenizer's default would throw on it.
 */
import { importAtRunTime } from "../../runtime-import.js";

export const ENCODINGS = ["cl100k_base", "o200k_base"] as const;
export type EncodingName = (typeof ENCODINGS)[number];

/** The name chunk records carry in `tokenizer`. */
export const TOKENIZER_NAME = "gpt-tokenizer";

export interface Tokenizer {
  readonly name: typeof TOKENIZER_NAME;
  readonly encoding: EncodingName;
  count(text: string): number;
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
}

const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export async function loadTokenizer(encoding: EncodingName): Promise<Tokenizer> {
  const mod =
    encoding === "o200k_base"
      ? await importAtRunTime<typeof import("gpt-tokenizer/encoding/o200k_base")>("gpt-tokenizer/encoding/o200k_base")
      : await importAtRunTime<typeof import("gpt-tokenizer/encoding/cl100k_base")>("gpt-tokenizer/encoding/cl100k_base");
  return {
    name: TOKENIZER_NAME,
    encoding,
    count: (text) => (text.length === 0 ? 0 : mod.countTokens(text, AS_PLAIN_TEXT)),
    encode: (text) => mod.encode(text, AS_PLAIN_TEXT),
    decode: (tokens) => mod.decode(tokens),
  };
}
