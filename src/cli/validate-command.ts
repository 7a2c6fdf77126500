import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import { EXIT } from "../exit-codes.js";

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
  // Defaults chosen from the rest of the pipeline, so nobody has to guess what a run will write.
  const named = (kind: string, list: readonly { spec: { type: string }; notes?: string[] }[]) => list.map((c, i) => ({ where: `${kind}[${i}] (${c.spec.type})`, notes: c.notes ?? [] }));
  for (const { where, notes } of [{ where: `source (${config.source.spec.type})`, notes: config.source.notes ?? [] }, ...named("stages", config.stages), ...named("sinks", config.sinks)]) {
    for (const note of notes) process.stdout.write(`  ${where}: ${note}\n`);
  }
  return EXIT.ok;
}
