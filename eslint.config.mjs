// Lint TypeScript sources with the recommended rule sets; build output is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // The core must never depend on VS Code: it runs under plain mocha.
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
);
