import js from '@eslint/js';
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
