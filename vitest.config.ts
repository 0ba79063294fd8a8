import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const alias = { '~': here('./app'), 'remix-server-build': here('./build/server/index.js') }

/**
 * The essay checker's dictionaries (wrangler.toml's `[[rules]]` Text modules) resolved without following symlinks: the
 * pool loads such modules only from inside the project's root, and a worktree's node_modules may link elsewhere.
 */
const dictionariesInRoot = {
  name: 'dictionaries-in-root',
  enforce: 'pre' as const,
  resolveId: (source: string, importer?: string) => (/\.(aff|dic)$/.test(source) && importer ? resolve(dirname(importer), source) : null),
}

/**
 * Three suites: `workers` runs the API and the console's loaders inside workerd against a migrated D1;
 * `components` renders React components in a DOM; `e2e` drives Debian's Chromium against the server
 * started as `npm start` starts it.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        plugins: [
          dictionariesInRoot,
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(here('./worker/migrations')),
                PARTY_SECRET: 'test-party-secret',
                ANSWER_RECEIPT_SECRET: 'test-answer-secret',
                // The demo accounts' password hash, computed once per run (tests/workers/setup.ts seeds with it).
                TEST_DEMO_PASSWORD_HASH: inject('demoPasswordHash'),
                // The suite runs the Worker as `npm start` does: in development mode (the local outbox is readable).
                DEV_MODE: '1',
                // Google sign-in against the local OpenID issuer started by tests/workers/global-setup.ts.
                GOOGLE_ISSUER: inject('oidcIssuer'),
                GOOGLE_JWKS_URL: `${inject('oidcIssuer')}/jwks`,
                // The AI layer's speech and paid media providers against the local server speaking their protocols (its
                // chat-completions endpoint is a realm setting, given per test).
                DID_API_URL: inject('aiProviders'),
                ELEVENLABS_API_URL: inject('aiProviders'),
                GOOGLE_TTS_API_URL: inject('aiProviders'),
                MINIMAX_API_URL: inject('aiProviders'),
                TEST_AI_PROVIDERS: inject('aiProviders'),
                // The input fuzz test (tests/workers/input-fuzz.test.ts): more cases, or another seed, from the shell.
                FUZZ_RUNS: process.env.FUZZ_RUNS ?? '',
                FUZZ_SEED: process.env.FUZZ_SEED ?? '',
                // Property tests run a small number of cases by default; PROPERTY_SCALE multiplies them (tests/support/property-runs.ts).
                PROPERTY_SCALE: process.env.PROPERTY_SCALE ?? '',
              },
            },
          })),
        ],
        test: {
          name: 'workers',
          // Files share a workerd instance and the Worker's loaded modules (a fresh instance per file cost ~4 s of CPU
          // each); tests/workers/setup.ts gives each file a freshly migrated and seeded database.
          isolate: false,
          include: ['tests/workers/**/*.test.ts'],
          globalSetup: ['tests/workers/global-setup.ts'],
          // Generous limits: a loaded CI machine is slow, and no test asserts a timing.
          testTimeout: 60_000,
          // The per-file database reset (setup.ts) included.
          hookTimeout: 60_000,
          setupFiles: ['tests/workers/setup.ts'],
          deps: {
            optimizer: {
              ssr: { enabled: true, include: ['@remix-run/cloudflare', '@remix-run/server-runtime', 'cookie', 'set-cookie-parser'] },
            },
          },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.{ts,tsx}'],
          // Type-level tests (`*.test-d.ts`, e.g. the typed realm-API client) are checked by tsc, not run.
          typecheck: { enabled: true, include: ['tests/components/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          environment: 'happy-dom',
          setupFiles: ['tests/components/setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          expect: { poll: { timeout: 20_000, interval: 100 } },
        },
      },
    ],
  },
})
