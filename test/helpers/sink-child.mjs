// One sink in a process of its own, driven over IPC by test/helpers/sink-conformance.ts, so the
// conformance tests can kill it with SIGKILL between any two operations, as a crash would.
//   node sink-child.mjs TYPE OPTIONS_JSON BASE_DIR CHECKPOINT_JSON
import { loadSpec } from "../../dist/pipeline/registry.js";

const [type, optionsJson, baseDir, checkpointJson] = process.argv.slice(2);
const spec = await loadSpec("sink", type, baseDir);
const checkpoint = JSON.parse(checkpointJson);
const sink = await spec.create(spec.options.parse(JSON.parse(optionsJson)), { baseDir, warn: () => {}, ...(checkpoint === null ? {} : { checkpoint }) });
process.send({ op: "opened", resumed: sink.resumed });
process.on("message", async ({ id, op, args }) => {
  try {
    let value;
    if (op === "write") value = await sink.write(args[0], args[1]);
    else if (op === "remove") value = await sink.remove(args[0], args[1]);
    else if (op === "checkpoint") value = await sink.checkpoint();
    else if (op === "close") value = await sink.close(args[0]);
    else if (op === "abort") value = await sink.abort();
    process.send({ id, ok: true, value: value ?? null });
  } catch (err) {
    process.send({ id, ok: false, message: String(err?.stack ?? err) });
  }
});
