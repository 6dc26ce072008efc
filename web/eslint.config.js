import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettyscore from './eslint-rules/feature-boundaries.js';

export default tseslint.config(
  { ignores: ['dist'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Features never import each other; only src/resources/<resource> calls the
    // API client, and resources sit below everything that uses them
    // (eslint-rules/feature-boundaries.js).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { prettyscore },
    rules: {
      'prettyscore/no-cross-feature-imports': 'error',
      'prettyscore/api-calls-only-in-resources': 'error',
      'prettyscore/resources-below-features': 'error',
    },
  },
  {
    // Shared code sits below the features, and the features below the app shell
    // (as bulletproof-react's zones): components, hooks, lib, config and
    // resources import no feature and nothing of src/app; a feature imports
    // nothing of src/app (the layout, routes and router are the app's). And no
    // module reaches itself again through its imports.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser for the files the rules follow (without it
      // no-cycle reads no imports of a .ts file and finds nothing).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./src/components', './src/hooks', './src/lib', './src/config', './src/resources'],
              from: ['./src/features', './src/app'],
              message: 'Shared code is used by features and the app, never the reverse: move what both need down here, or the importing code up.',
            },
            {
              target: './src/features',
              from: './src/app',
              message: 'A feature does not import the app shell (layout, routes, router): pass what it needs in, or move it down to components.',
            },
          ],
        },
      ],
    },
  },
  {
    // Libraries that must not reach the home page's first load (npm run size):
    // zod only through src/lib/zod.ts, which sets it up before any schema exists,
    // and sonner only through src/lib/toast.ts, which loads it on the first toast.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/zod.ts', 'src/lib/toast.ts', 'src/testing/setup-tests.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: "Import { z } from '@/lib/zod': it configures zod before any schema is made." },
            {
              name: 'sonner',
              importNames: ['toast', 'Toaster'],
              message: "Import { toast } from '@/lib/toast' (sonner loads on the first toast, not with the home page).",
            },
          ],
        },
      ],
    },
  },
);
