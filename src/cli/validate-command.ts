import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import { checkEnvironment, formatEnvironmentIssue } from "../pipeline/environment-check.js";
import { probeEnvironment } from "../pipeline/environment-probe.js";
import { linkedOutputCollisions } from "../pipeline/output-collisions.js";
import { EXIT } from "../exit-codes.js";
import type { PipelineConfig } from "../pipeline/config.js";
import type { EnvironmentIssue } from "../pipeline/environment-check.js";

export interface ValidateFlags {
  /** Also look at what the pipeline will use: the source, the outputs, the run folder (Vector's second phase). */
  env?: boolean;
}

/**
 * The pure checks first (every problem with its line and column), then what the components need
 * from the machine (programs, language packs) and what symbolic links hide (a sink on the
 * pipeline file or another sink's file under another name); with --env, what they will use (the source
 * folder or bucket, the files the sinks write, the run folder), without changing anything.
 */
export async function validateCommand(path: string, flags: ValidateFlags = {}): Promise<number> {
  const result = await loadPipelineFile(path);
  if (!result.ok) {
    for (const issue of result.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
    return EXIT.usage;
  }
  const { config } = result;
  const environment = await checkEnvironment(config, { baseDir: config.baseDir, warn: (m) => process.stderr.write(`pagestream: ${m}\n`) });
  // Two names for one file through a symbolic link: the pure checks compare the names.
  environment.push(...(await linkedOutputCollisions(config, path)));
  const probed = flags.env ? await probeEnvironment(config, { baseDir: config.baseDir, warn: (m) => process.stderr.write(`pagestream: ${m}\n`) }) : undefined;
  if (probed) await probeQueue(config, probed);
  const problems = [...environment, ...(probed?.issues ?? [])];
  if (problems.length) {
    for (const issue of problems) process.stderr.write(formatEnvironmentIssue(issue, path) + "\n");
    return EXIT.usage;
  }
  process.stdout.write(
    `${path}: ok (source ${config.source.spec.type}; stages ${config.stages.map((s) => s.spec.type).join(" → ")}; sinks ${config.sinks.map((s) => s.spec.type).join(", ")})\n`,
  );
  // Defaults chosen from the rest of the pipeline, so nobody has to guess what a run will write.
  const named = (kind: string, list: readonly { spec: { type: string }; notes?: string[] }[]) => list.map((c, i) => ({ where: `${kind}[${i}] (${c.spec.type})`, notes: c.notes ?? [] }));
  for (const { where, notes } of [{ where: `source (${config.source.spec.type})`, notes: config.source.notes ?? [] }, ...named("stages", config.stages), ...named("sinks", config.sinks)]) {
    for (const note of notes) process.stdout.write(`  ${where}: ${note}\n`);
  }
  for (const line of probed?.found ?? []) process.stdout.write(`  ${line}\n`);
  return EXIT.ok;
}

/** With `queue:` in the file, its Redis must answer (the run would stop at once without it); the password is never shown. */
async function probeQueue(config: PipelineConfig, probed: { found: string[]; issues: EnvironmentIssue[] }): Promise<void> {
  const { chooseQueue } = await import("../run/queue/queue-setting.js");
  const chosen = chooseQueue(config.settings.queue, undefined);
  if (!chosen.ok || !chosen.queue) return;
  const { checkReachable } = await import("../run/queue/redis-connection.js");
  try {
    await checkReachable(chosen.queue.address);
    probed.found.push(`queue: Redis at ${chosen.queue.address.shown} answers`);
  } catch (err) {
    probed.issues.push({ path: "queue", type: "redis", message: (err as Error).message });
  }
}
