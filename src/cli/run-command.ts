import { buildPipeline } from "../core/build-pipeline.js";
import { formatIssue, loadPipelineFile } from "../core/config.js";
import { runPipeline } from "../core/runner.js";
import { EXIT } from "./exit-codes.js";

export async function runCommand(path: string): Promise<number> {
  const loaded = await loadPipelineFile(path);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
    return EXIT.usage;
  }
  const warn = (message: string) => process.stderr.write(`pagestream: ${message}\n`);
  const pipeline = await buildPipeline(loaded.config, { baseDir: loaded.config.baseDir, warn });
  const summary = await runPipeline(pipeline, {
    onResult(result) {
      if (result.status === "failed") warn(`${result.uri}: ${result.error.code}: ${result.error.message}`);
      for (const w of result.warnings) warn(`${result.uri}: ${w.message}`);
    },
  });
  const failures = Object.entries(summary.failedByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  process.stderr.write(
    `pagestream: ${summary.ok} document(s) ingested (${summary.pages} pages), ${summary.failed} failed${failures ? ` (${failures})` : ""}, in ${summary.seconds.toFixed(1)} s\n`,
  );
  return summary.failed > 0 ? EXIT.failedDocuments : EXIT.ok;
}
