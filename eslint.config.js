// Type-checked linting: catches floating promises, misused promises and unused code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', 'src/console/assets/**', 'evals/apps/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(data|tools|router|reading|answers|providers|engine|planned|store|server|console|evals|mcp|telemetry|client|demo|cli)/(?!index\\.js$).+',
              message: "Import another folder through its public face ('../<folder>/index.js').",
            },
          ],
        },
      ],
    },
  },
  {
    // Each example is a project of its own, whose tsconfig.json resolves `plumb-agent` from its
    // node_modules; in this repository the root tsconfig.json maps it to src/.
    files: ['examples/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    // The console's scripts run in the browser as they are (no build step): lint them as plain
    // JavaScript, without type information; the browser provides its globals.
    files: ['src/console/**/*.js'],
    languageOptions: { sourceType: 'module', parserOptions: { projectService: false, project: false, program: null }, globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', WebSocket: 'readonly', EventSource: 'readonly', localStorage: 'readonly', sessionStorage: 'readonly', location: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', console: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', AbortController: 'readonly', URL: 'readonly', HTMLElement: 'readonly', navigator: 'readonly', requestAnimationFrame: 'readonly', Date: 'readonly', JSON: 'readonly' } },
    rules: { ...tseslint.configs.disableTypeChecked.rules, 'no-console': 'off' },
  },
  {
    // `plumb-agent/postgres` gathers the PostgreSQL parts of data/ and store/, so that `pg` loads only
    // for an app that imports it; those parts stay out of their folders' faces on purpose.
    files: ['src/postgres/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // `plumb-agent/testing` gathers the conformance suites, which stay out of their folders' faces so that
    // library code never loads vitest.
    files: ['src/testing/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/cli/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-imports': 'off',
    },
  },
);
