// Lint TypeScript sources with the recommended rule sets; build output is ignored.
import js from '@eslint/js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');
/** What ships (bundled into dist/extension.js): the core, the VS Code adapter, the entry point, the cache model. */
export const PRODUCT = ['src/core/**/*.ts', 'src/vscode/**/*.ts', 'src/extension.ts', 'src/cacheModel/**/*.ts'];
/** The project's tooling: never imported by what ships. */
export const TOOLING = ['bench', 'fakeServer', 'replay', 'e2e', 'tools', 'test'];

/**
 * Shipped code never imports tooling. Resolves each relative import against the importing file (a folder
 * name alone cannot tell src/replay, the replay CLI's, from src/core/replay, the product's).
 */
const noToolingImports = {
  meta: { type: 'problem', schema: [], messages: { tooling: "Shipped code imports tooling ('{{spec}}' is under src/{{folder}}); move what it needs into the product (src/core)." } },
  create(context) {
    const check = (source) => {
      const spec = source?.type === 'Literal' ? source.value : undefined;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const relative = path.relative(src, path.resolve(path.dirname(context.filename), spec));
      const folder = relative.split(path.sep)[0];
      if (!relative.startsWith('..') && TOOLING.includes(folder)) context.report({ node: source, messageId: 'tooling', data: { spec, folder } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression: (node) => node.callee.type === 'Identifier' && node.callee.name === 'require' && check(node.arguments[0]),
    };
  },
};
/**
 * The SDKs the differential tests use as oracles (devDependencies): shipped code may name their request types (a route
 * types its body with them, docs/routes.md), erased at compile time, but never import a value from them.
 */
const ORACLE_SDKS = {
  group: ['@anthropic-ai/*', '@google/genai', '@google/genai/*'],
  allowTypeImports: true,
  message: 'a devDependency for the differential tests only (docs/routes.md, "Differential tests"); shipped code may only `import type` from it',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-e2e/**', 'scripts/**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': 'off',
    },
  },
  {
    // The SDKs the differential tests use as oracles (devDependencies) never reach the shipped code.
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [ORACLE_SDKS] }] },
  },
  {
    // The core must never depend on VS Code: it runs under plain mocha.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['vscode'] }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [ORACLE_SDKS] }],
    },
  },
  {
    // The product apart from its tools (docs/architecture.md: Product and tooling).
    files: PRODUCT,
    plugins: { product: { rules: { 'no-tooling-imports': noToolingImports } } },
    rules: { 'product/no-tooling-imports': 'error' },
  },
);
