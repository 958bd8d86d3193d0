// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-plugin-layers.js';

const CORE_BANNED_PACKAGES = [
  {
    group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
    message: 'src/core is framework-free: no React.',
  },
  { group: ['zustand', 'zustand/*'], message: 'src/core holds no UI state: no zustand.' },
  { group: ['@xyflow/*', 'monaco-editor', 'monaco-editor/*'], message: 'src/core has no UI.' },
  {
    group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'url'],
    message: 'src/core runs in the browser too: Node built-ins come in through adapters.',
  },
];

const INJECTED = 'is injected into core (see STYLE.md): take it as a parameter instead.';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-viewer',
      'node_modules',
      'playwright-report',
      'test-results',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/**', 'src/cli/**'],
    languageOptions: { globals: globals.browser },
    extends: [reactHooks.configs.flat['recommended-latest']],
  },
  {
    files: ['src/cli/**', 'scripts/**', 'bin/**', 'e2e/**', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { policylab: layers },
    rules: { 'policylab/layers': 'error' },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: CORE_BANNED_PACKAGES }] },
  },
  {
    // Core is deterministic: the clock, randomness, timers, storage and the network are passed in.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'location',
          'localStorage',
          'sessionStorage',
          'indexedDB',
          'fetch',
          'XMLHttpRequest',
          'WebSocket',
          'Worker',
          'setTimeout',
          'setInterval',
          'setImmediate',
          'requestAnimationFrame',
          'queueMicrotask',
          'performance',
          'crypto',
          'process',
        ].map((name) => ({ name, message: `${name} ${INJECTED}` })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: `Randomness ${INJECTED}` },
        { object: 'Date', property: 'now', message: `The clock ${INJECTED}` },
        { object: 'globalThis', message: `The host environment ${INJECTED}` },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: `The clock ${INJECTED}`,
        },
      ],
    },
  },
);
