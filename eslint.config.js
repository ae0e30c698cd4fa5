import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The client's features, one folder each under src/client/features. */
const CLIENT_FEATURES = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What every client module may not import. */
const CLIENT_IMPORT_RULES = [
  {
    group: ['**/server/**', '!**/server/router.ts', '!@trpc/server/observable'],
    message: 'The client imports only `type AppRouter` from the server (and tRPC links need @trpc/server/observable).',
  },
  {
    // Relative paths would slip past the feature boundaries below; only src/shared, the server's
    // router type and stylesheets are reached that way.
    regex: '^\\.\\.?/(?!(\\.\\./)*(shared|server)/)(?!.*\\.css$)',
    message: 'Import client modules through `@/` (e.g. `@/lib/utils.ts`).',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'drizzle/', 'node_modules/', 'coverage/', 'e2e/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: CLIENT_IMPORT_RULES }],
    },
  },
  // Shared code sits below the features: components and lib never reach up into one.
  {
    files: ['src/client/components/**/*.{ts,tsx}', 'src/client/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CLIENT_IMPORT_RULES,
            { regex: '^@/features/', message: 'components/ and lib/ serve every feature and import none; let app/ pass in what is needed.' },
            { regex: '^@/app/', message: 'components/ and lib/ sit below app/, which composes them: route names and the route table are in config/.' },
          ],
        },
      ],
    },
  },
  // Features never import each other: each may import itself, components, lib and config (the
  // route names and the route table); the app folder composes them. One block per feature, since
  // the rule cannot say "this file's own feature".
  ...CLIENT_FEATURES.map((feature) => ({
    files: [`src/client/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CLIENT_IMPORT_RULES,
            {
              regex: `^@/features/(?!${feature}/)`,
              message: `features/${feature} must not import another feature: move what both need to components/ or lib/, or let app/ compose them.`,
            },
            {
              regex: '^@/app/',
              message: 'A feature imports nothing of app/: app/ composes features, not the reverse (the route names are in config/paths.ts).',
            },
          ],
        },
      ],
    },
  })),
  // The route names and the route table are read by Node too (the build's configuration, the
  // server), where '@/' means nothing: they import each other relatively, and nothing else of ours.
  {
    files: ['src/client/config/**/*.ts'],
    ignores: ['src/client/config/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CLIENT_IMPORT_RULES[0],
            { regex: '^(@/|\\.\\./)', message: 'config/ is plain data read under Node: it imports only itself (./paths.ts) and types.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '**/server/**', '**/workers/**'], message: 'src/shared is isomorphic.' }] },
      ],
    },
  },
);
