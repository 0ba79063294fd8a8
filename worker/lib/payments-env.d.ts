/** Worker vars of the payment adapters (worker/lib/payments.ts); all optional. */
declare namespace Cloudflare {
  interface Env {
    /** `on` offers the sandbox provider in every realm (otherwise only realms flagged `development`). */
    PAYMENT_SANDBOX?: string
    /** Key of the sandbox's webhook signatures; derived from PARTY_SECRET when unset. */
    SANDBOX_WEBHOOK_SECRET?: string
  }
}
