import { formatIssue, loadPipelineFile } from "../core/config.js";
import { EXIT } from "./exit-codes.js";

export async function validateCommand(path: string): Promise<number> {
  const result = await loadPipelineFile(path);
  if (!result.ok) {
    for (const issue of result.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
    return EXIT.usage;
  }
  const { config } = result;
  process.stdout.write(
    `${path}: ok (source ${config.source.spec.type}; stages ${config.stages.map((s) => s.spec.type).join(" → ")}; sinks ${config.sinks.map((s) => s.spec.type).join(", ")})\n`,
  );
  return EXIT.ok;
}
