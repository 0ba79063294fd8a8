import { hmacSign, hmacVerify, randomToken } from './crypto'

/**
 * Payment providers behind one interface (seed 000 §7, §9: one card provider with payment intents, one regional
 * provider with `transaction_amount`). Credits are never issued by a provider call: only a verified webhook
 * confirmation issues them (worker/api/ledger/webhook.ts).
 */
export type ProviderKind = 'card' | 'regional'

export interface PaymentStart {
  intentId: string
  amount: number
  currency: string
  description: string
  /** Origin of the console that asked, for the hosted checkout page. */
  origin: string
}

export interface StartedPayment {
  providerRef: string
  /** Where the buyer pays (the provider's hosted checkout). */
  checkoutUrl: string
  /** Authorises the buyer's browser on the provider's checkout (never stored in clear). */
  clientSecret: string
  /** Regional providers answer a payment code to copy (e.g. an instant-payment code). */
  qrCode?: string
}

/** A confirmation from a provider, read from an authentic webhook. */
export interface WebhookEvent {
  id: string
  type: 'payment.succeeded' | 'payment.failed'
  intentId: string
  providerRef: string
  amount: number
  currency: string
  failureCode?: string
}

export interface PaymentProvider {
  code: string
  kind: ProviderKind
  sandbox: boolean
  /** Ready to take payments for a realm (`development` is the realm's flag). */
  available(env: Env, realm: { development: boolean }): Promise<boolean>
  start(env: Env, payment: PaymentStart): Promise<StartedPayment>
  /** The event of an authentic, fresh webhook; null when the signature or the timestamp does not hold. */
  verify(env: Env, request: Request, rawBody: string): Promise<WebhookEvent | null>
}

/** Webhooks older (or newer) than this are refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_S = 300
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'

/**
 * Test cards of the sandbox checkout (the numbers card providers document for their own sandboxes).
 * Any other number is refused as not a test card.
 */
export const SANDBOX_CARDS: Record<string, { outcome: 'succeeded' | 'failed'; failureCode?: string }> = {
  '4242424242424242': { outcome: 'succeeded' },
  '5555555555554444': { outcome: 'succeeded' },
  '4000000000000002': { outcome: 'failed', failureCode: 'card_declined' },
  '4000000000009995': { outcome: 'failed', failureCode: 'insufficient_funds' },
}

/**
 * The key the sandbox signs its webhooks with: SANDBOX_WEBHOOK_SECRET, else one derived from the Worker's shared
 * secret (PARTY_SECRET) so a local run needs no extra setup. Null: the sandbox is off.
 */
export async function sandboxSecret(env: Env): Promise<string | null> {
  if (env.SANDBOX_WEBHOOK_SECRET) return env.SANDBOX_WEBHOOK_SECRET
  return env.PARTY_SECRET ? hmacSign(env.PARTY_SECRET, 'ledger-sandbox-webhook') : null
}

/** The signature header of a webhook body, as the sandbox sends it: `t=<unix seconds>,v1=<HMAC-SHA256>`. */
export async function signSandboxWebhook(secret: string, body: string, at = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${at},v1=${await hmacSign(secret, `${at}.${body}`)}`
}

function sandbox(code: string, kind: ProviderKind): PaymentProvider {
  return {
    code,
    kind,
    sandbox: true,
    // Only development realms (or a Worker with PAYMENT_SANDBOX=on) get the sandbox: it hands out credits for free.
    async available(env, realm) {
      return (realm.development || env.PAYMENT_SANDBOX === 'on') && (await sandboxSecret(env)) !== null
    },
    async start(_env, p) {
      const clientSecret = randomToken(24)
      return {
        providerRef: `sbx_${randomToken(9)}`,
        checkoutUrl: `${p.origin}/sandbox/checkout/${encodeURIComponent(p.intentId)}?secret=${clientSecret}`,
        clientSecret,
        qrCode: kind === 'regional' ? `SANDBOX-PAY:${p.currency}:${p.amount.toFixed(2)}:${p.intentId}` : undefined,
      }
    },
    async verify(env, request, rawBody) {
      const secret = await sandboxSecret(env)
      const header = request.headers.get(SANDBOX_SIGNATURE_HEADER) ?? ''
      const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]))
      const at = Number(parts.t)
      if (!secret || !Number.isInteger(at) || !parts.v1) return null
      if (Math.abs(Date.now() / 1000 - at) > WEBHOOK_TOLERANCE_S) return null
      if (!(await hmacVerify(secret, `${at}.${rawBody}`, parts.v1))) return null
      let event: { id?: unknown; type?: unknown; data?: Record<string, unknown> }
      try {
        event = JSON.parse(rawBody) as typeof event
      } catch {
        return null
      }
      const d = event.data ?? {}
      if (typeof event.id !== 'string' || (event.type !== 'payment.succeeded' && event.type !== 'payment.failed')) return null
      if (typeof d.intent_id !== 'string' || typeof d.provider_ref !== 'string' || typeof d.amount !== 'number' || typeof d.currency !== 'string') return null
      return {
        id: event.id,
        type: event.type,
        intentId: d.intent_id,
        providerRef: d.provider_ref,
        amount: d.amount,
        currency: d.currency,
        failureCode: typeof d.failure_code === 'string' ? d.failure_code : undefined,
      }
    },
  }
}

/**
 * The providers this build can talk to. Only the embedded sandbox is implemented; a real card or regional adapter
 * plugs in here with its own `available` (its Worker vars), `start` and `verify`.
 */
export const PROVIDERS: PaymentProvider[] = [sandbox('sandbox-card', 'card'), sandbox('sandbox-regional', 'regional')]

export function providerByCode(code: string): PaymentProvider | undefined {
  return PROVIDERS.find((p) => p.code === code)
}
