/**
 * `Cloudflare.Env` (what `cloudflare:test` exposes too) is generated from wrangler.toml into
 * worker/worker-configuration.d.ts by `npm run types` (`npm run lint` fails when it is stale). Declared here: the
 * secrets and the development vars that wrangler.toml does not hold, all optional.
 */
declare namespace Cloudflare {
  interface Env {
    /** Shared with the PartyKit server to sign connection tickets. Unset: live features report unavailable. */
    PARTY_SECRET?: string
    /** Signs the start receipts of students' tasks (issue 17: timed and offline answers). Unset: tasks cannot be opened (503). */
    ANSWER_RECEIPT_SECRET?: string
    /** E-mail provider (password recovery): JSON API base URL and key (a secret). Unset: the local outbox. */
    EMAIL_API_URL?: string
    EMAIL_API_KEY?: string
    /** Sender address of the console's e-mail. */
    EMAIL_FROM?: string
    /**
     * `1` when the Worker runs locally for development: set only by `npm start` (`wrangler dev --var`), never in
     * wrangler.toml, so a deployed Worker never has it. Opens the local e-mail outbox to the realm's staff.
     */
    DEV_MODE?: string
    /**
     * Cloudflare Workers AI, when the deployed Worker has the binding (`[ai] binding = "AI"` in wrangler.toml; left
     * out of the file because `wrangler dev` would need an account for it). Realms choosing `workers_ai` use it.
     */
    AI?: { run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown> }
  }
}

declare module 'remix-server-build' {
  import type { ServerBuild } from '@remix-run/cloudflare'
  const build: ServerBuild
  export = build
}
