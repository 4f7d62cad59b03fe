/** `node out/bench/state/runStateWrites.js`: the saved-state write regime alone (it is also part of `npm run bench`). */
import { measureStateWrites, stateWritesMarkdown } from './stateWrites';

measureStateWrites().then(
  (result) => process.stdout.write(stateWritesMarkdown(result)),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
