/** Bindings of the Worker (wrangler.toml) and its secrets; `Cloudflare.Env` is what `cloudflare:test` exposes too. */
declare namespace Cloudflare {
  interface Env {
    DB: D1Database
    FILES: R2Bucket
    ASSETS: Fetcher
    DASH_VERSION: string
    PARTYKIT_HOST: string
    /** Shared with the PartyKit server to sign connection tickets. Unset: live features report unavailable. */
    PARTY_SECRET?: string
    /** OpenID issuer of Google sign-in (discovery at <issuer>/.well-known/openid-configuration); tests use a local issuer. */
    GOOGLE_ISSUER: string
    /** Key set (JWKS) that signs the issuer's id_tokens. */
    GOOGLE_JWKS_URL: string
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
  }
}
interface Env extends Cloudflare.Env {}

declare module 'remix-server-build' {
  import type { ServerBuild } from '@remix-run/cloudflare'
  const build: ServerBuild
  export = build
}
