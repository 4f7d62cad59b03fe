#!/usr/bin/env node
/**
 * Runs the fake OpenCode server as its own process (for `npm start`, manual runs and out-of-process tests).
 * Prints exactly one line on stdout, `FAKE_OPENCODE_URL=...`, once listening.
 */
import { startFakeServer } from './server';
import { CLI_USAGE, parseCliArgs, type CliRequest } from './cliArgs';

async function main(argv: readonly string[]): Promise<void> {
  let request: CliRequest;
  try {
    request = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${CLI_USAGE}\n`);
    process.exit(2);
  }
  if (request.help) {
    process.stdout.write(`${CLI_USAGE}\n`);
    return;
  }
  const server = await startFakeServer({
    ...request.options,
    onRequestLog: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`FAKE_OPENCODE_URL=${server.url}\n`);

  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`fake server failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
