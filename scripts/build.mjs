// Bundles the extension into dist/extension.js. The tokenizer (o200k ranks, ~2 MB) is a second bundle,
// dist/tokenizer.js, required lazily at first use so activation stays fast. The image worker (decode, resize,
// encode: src/core/images/imageWorker.ts) is a third, dist/imageWorker.js, started as a worker thread by
// imageFitter.ts from beside the extension's bundle.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';

const production = process.argv.includes('--production');
// package.json is the one source of the version (src/core/request/version.ts).
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  // Non-ASCII text (…, —, ≈) as UTF-8, not \u escapes: 3 bytes less each.
  charset: 'utf8',
  sourcemap: !production,
  logLevel: 'warning',
};

/** Tooling folders (eslint.config.mjs TOOLING): a bundle input under one of them fails the build. */
const TOOLING = /^src\/(bench|fakeServer|replay|e2e|tools|test)\//;

const extension = await esbuild.build({
  ...common,
  metafile: true,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  external: ['vscode', './tokenizer.js'],
  // Makes tokenCounter.ts require the separate dist/tokenizer.js instead of bundling the rank tables, and
  // writes package.json's version in (version.ts reads the file only when unbundled).
  define: { __OPENCODE_BUNDLE__: 'true', __OPENCODE_VERSION__: JSON.stringify(version) },
});
// The bundle holds only product code: its inputs are written beside it (a test reads them) and checked here.
const inputs = Object.keys(extension.metafile.inputs).filter((f) => f.startsWith('src/')).sort();
fs.writeFileSync('dist/extension.inputs.json', `${JSON.stringify(inputs, null, 1)}\n`);
const tooling = inputs.filter((f) => TOOLING.test(f));
if (tooling.length > 0) {
  console.error(`The bundle would ship tooling: ${tooling.join(', ')}`);
  process.exit(1);
}
// Nothing is decoded on the extension host: the codecs are the image worker's alone (src/core/images/imageFitter.ts).
const decoders = Object.keys(extension.metafile.inputs).filter((f) => /node_modules\/(pngjs|jpeg-js)\/|src\/core\/images\/(imageCodec|fitImage)\.ts$/.test(f));
if (decoders.length > 0) {
  console.error(`The extension bundle would decode images on the host thread: ${decoders.join(', ')}`);
  process.exit(1);
}
await esbuild.build({
  ...common,
  entryPoints: ['src/core/tokens/o200k.ts'],
  outfile: 'dist/tokenizer.js',
});
await esbuild.build({
  ...common,
  entryPoints: ['src/core/images/imageWorker.ts'],
  outfile: 'dist/imageWorker.js',
});
