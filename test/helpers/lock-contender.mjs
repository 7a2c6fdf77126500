// One run's start, in a process of its own, driven over IPC by test/run/lock-race.test.ts: on
// "take" it takes the run folder's lock as `pagestream run` does, says whether it got it, and
// holds it until "release", so that every contender of a round tries while the winner holds.
//   node lock-contender.mjs
import { lockRunFolder } from "../../dist/run/run-lock.js";

let held;
process.on("message", async ({ op, folder }) => {
  if (op === "take") {
    try {
      held = await lockRunFolder(folder, "out/");
      process.send({ op, won: true });
    } catch (err) {
      process.send({ op, won: false, message: String(err?.message ?? err) });
    }
  } else if (op === "release") {
    await held?.release();
    held = undefined;
    process.send({ op });
  } else if (op === "exit") {
    process.exit(0);
  }
});
process.send({ op: "ready" });
