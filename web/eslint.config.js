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
    // Features never import each other (eslint-rules/feature-boundaries.js).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { prettyscore },
    rules: { 'prettyscore/no-cross-feature-imports': 'error' },
  },
);
