// Bundles the extension into dist/extension.js. The tokenizer (o200k ranks, ~2 MB) is a second bundle,
// dist/tokenizer.js, required lazily at first use so activation stays fast.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
};

await esbuild.build({
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  external: ['vscode', './tokenizer.js'],
  // Makes tokenCounter.ts require the separate dist/tokenizer.js instead of bundling the rank tables.
  define: { __OPENCODE_BUNDLE__: 'true' },
});
await esbuild.build({
  ...common,
  entryPoints: ['src/core/tokens/o200k.ts'],
  outfile: 'dist/tokenizer.js',
});
