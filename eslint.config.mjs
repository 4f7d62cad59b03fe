// Lint TypeScript sources with the recommended rule sets; build output is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ORACLE_SDKS = { group: ['@anthropic-ai/*', '@google/genai', '@google/genai/*'], message: 'a devDependency for the differential tests only (docs/routes.md, "Differential tests")' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-e2e/**', 'scripts/**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The SDKs the differential tests use as oracles (devDependencies) never reach the shipped code.
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ORACLE_SDKS] }] },
  },
  {
    // The core must never depend on VS Code: it runs under plain mocha.
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'], patterns: [ORACLE_SDKS] }] },
  },
);
