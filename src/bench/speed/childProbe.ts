/**
 * Probes that must run in a fresh Node process (activation, memory): the parent runs the script and parses the one
 * JSON line it prints; the child prints its result that way, or its error and exit code 1.
 */
import { spawn } from 'child_process';

export function runProbe<T>(script: string, nodeArgs: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line) return reject(new Error(`${script} exited with ${code}: ${stderr.trim()}`));
      try {
        resolve(JSON.parse(line) as T);
      } catch (error) {
        reject(new Error(`${script} printed no JSON: ${(error as Error).message}`));
      }
    });
  });
}

/** The child side: call from the probe script's `require.main === module` branch. */
export function runAsChildProbe(probe: () => Promise<unknown>): void {
  probe().then(
    (result) => process.stdout.write(JSON.stringify(result) + '\n'),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
