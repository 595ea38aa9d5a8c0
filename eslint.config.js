// @ts-check
// ESLint: the recommended rules of ESLint, typescript-eslint and eslint-plugin-astro.
// Not the type-aware set: it needs a full TypeScript program per run (slow on two cores)
// and reports mostly `no-unsafe-*` on upstream JSON that the schemas check at run time.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/', '.astro/', '.cache/', '.building/', 'node_modules/', 'bench/results/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks a parameter or binding that is unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Control characters are matched on purpose: stripping them from upstream text, ANSI colours from logs.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read raw JSON answers of the emulator and the API as they come, without a schema.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
