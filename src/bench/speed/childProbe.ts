/** Runs a compiled probe script in a fresh Node process and parses the JSON line it prints. */
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
