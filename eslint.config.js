// @ts-check
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['build/', '.wrangler/', '.partykit/', '.cache/', 'node_modules/', 'tests/e2e/artifacts/', 'worker/worker-configuration.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.serviceworker } },
    rules: {
      // `_name` marks a value taken out on purpose (`const { secret: _s, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Validators and sanitizers match control characters on purpose (input rules, file names, rich text).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The Worker and the parties reach console code only through `#shared/…` (app/shared/: what both sides import).
    files: ['worker/**/*.{ts,tsx,mjs}', 'party/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+app(/|$)', message: 'Import shared code as #shared/… (app/shared/), never by a relative path into app/.' },
            { regex: '^~/', message: 'The Worker and the parties import only app/shared/ (as #shared/…), not console modules.' },
          ],
        },
      ],
    },
  },
  {
    // PartyKit's `room.id` throws while an alarm of the same room is awaiting and in a room an alarm woke
    // (party/socket.ts roomIdOf): handlers take the id from their request, the verified ticket or the stored meta.
    files: ['party/**/*.ts'],
    ignores: ['party/socket.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='id'][object.property.name='room']",
          message: 'room.id throws during an alarm: use roomIdOf(request), the ticket’s room or the stored meta (party/socket.ts).',
        },
        {
          selector: "MemberExpression[property.name='id'][object.name='room']",
          message: 'room.id throws during an alarm: use roomIdOf(request), the ticket’s room or the stored meta (party/socket.ts).',
        },
      ],
    },
  },
  {
    // Tests import shared code as `#shared/…` and console-only modules as `~/…`.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+app(/|$)', message: 'Import app code as #shared/… or ~/…, not by a relative path.' }] },
      ],
    },
  },
  {
    files: ['app/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A container may catch the Escape key bubbling from the controls inside it (drawer, menus): the controls are
      // the interactive elements, the container only closes what they opened. Clicks and the rest stay forbidden.
      'jsx-a11y/no-static-element-interactions': [
        'error',
        { allowExpressionValues: true, handlers: ['onClick', 'onMouseDown', 'onMouseUp', 'onKeyPress', 'onKeyUp'] },
      ],
    },
  },
  {
    // SQL lives in worker/db/ only (issue 12): route handlers validate, check permissions, call worker/db and shape the
    // answer. D1's `.prepare(`, `.exec(` and `.batch(` anywhere else in the Worker fail the lint (a regex literal's
    // `.exec(` is not D1 and passes). Exempt: worker/scripts/ and worker/seed/ (Node-side tools and demo/bench seeding
    // that write fixture rows in bulk, never run by a request). The generic entity machinery's SQL is in
    // worker/db/entity-rows.ts like the rest.
    files: ['worker/**/*.ts'],
    ignores: ['worker/db/**', 'worker/scripts/**', 'worker/seed/**', 'worker/**/*.d.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(prepare|batch)$/]',
          message: 'SQL belongs in worker/db/: call a named function there (db, realm, …) instead of D1 here.',
        },
        {
          selector: "CallExpression[callee.property.name='exec']:not([callee.object.regex])",
          message: 'SQL belongs in worker/db/: call a named function there (db, realm, …) instead of D1 here.',
        },
      ],
    },
  },
)
