declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[]
    /** Cases and seed of the input fuzz test (empty: its defaults). */
    FUZZ_RUNS: string
    FUZZ_SEED: string
  }
}

declare module '*.md?raw' {
  const text: string
  export default text
}
