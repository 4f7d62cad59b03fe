/**
 * The shipped artifacts: the production bundle activation is timed on (built here when missing), and the
 * .vsix size (only read: packaging is `npm run package`, not the benchmark's job).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { DIST_EXTENSION, REPO_ROOT, VSIX } from './repoPaths';

export interface ArtifactSizes {
  /** True when the benchmark had to build dist/ itself (production build). */
  builtDist: boolean;
  extensionBytes: number;
  tokenizerBytes: number;
  /** Undefined when no .vsix has been built. */
  vsixBytes?: number;
}

export function ensureProductionBundle(): boolean {
  if (fs.existsSync(DIST_EXTENSION)) return false;
  execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: REPO_ROOT, stdio: 'inherit' });
  return true;
}

function sizeOf(file: string): number | undefined {
  return fs.existsSync(file) ? fs.statSync(file).size : undefined;
}

export function artifactSizes(builtDist: boolean): ArtifactSizes {
  return {
    builtDist,
    extensionBytes: sizeOf(DIST_EXTENSION) ?? 0,
    tokenizerBytes: sizeOf(path.join(path.dirname(DIST_EXTENSION), 'tokenizer.js')) ?? 0,
    vsixBytes: sizeOf(VSIX),
  };
}
