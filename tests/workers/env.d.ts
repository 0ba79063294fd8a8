declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[]
    /** Hash of the demo password `demo1234`, computed once per run by tests/workers/global-setup.ts. */
    TEST_DEMO_PASSWORD_HASH: string
    /** Cases and seed of the input fuzz test (empty: its defaults). */
    FUZZ_RUNS: string
    FUZZ_SEED: string
    /** Multiplier of every property test's number of cases (empty: 1). */
    PROPERTY_SCALE: string
    /** Base URL of the local AI providers (tests/support/ai-providers.ts; key `test-ai-key`). */
    TEST_AI_PROVIDERS: string
  }
}

declare module '*.md?raw' {
  const text: string
  export default text
}
