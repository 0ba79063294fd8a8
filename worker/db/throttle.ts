import { sha256Hex } from '../lib/crypto'

/**
 * Slowing down password guessing without ever locking the real user out. Failed sign-ins are counted in realm-wide
 * buckets in D1, each forgetting its failures once its window passes without a new one:
 * - pair (account, client address): a small rising delay after a few failures, then a captcha. A request with a
 *   solved captcha is never delayed by it, so the right password with a captcha always gets through;
 * - account (from any address): asks every address for a captcha after many failures; it never delays or refuses,
 *   so guessing someone's password from many addresses cannot keep them out;
 * - client address (any account): a captcha after many failures (a school behind one NAT address solves captchas
 *   long before anything else happens) and, far higher, the one hard refusal: a flood ceiling. Each attempt costs a
 *   600,000-iteration password hash, so an address failing that often waits (a solved captcha does not help, since
 *   proof of work is cheap to compute) and its attempts are refused before any hashing.
 */
export interface ThrottlePolicy {
  windowMs: number
  captchaAfter: number
  delayAfter: number
  baseDelayMs: number
  maxDelayMs: number
  /** True when a request carrying a solved captcha is not delayed by this bucket. */
  captchaSkipsDelay: boolean
}

export const THROTTLE: Record<BucketKind, ThrottlePolicy> = {
  pair: { windowMs: 15 * 60_000, captchaAfter: 5, delayAfter: 3, baseDelayMs: 1_000, maxDelayMs: 30_000, captchaSkipsDelay: true },
  account: { windowMs: 15 * 60_000, captchaAfter: 10, delayAfter: Number.POSITIVE_INFINITY, baseDelayMs: 0, maxDelayMs: 0, captchaSkipsDelay: true },
  client: { windowMs: 60 * 60_000, captchaAfter: 20, delayAfter: 100, baseDelayMs: 1_000, maxDelayMs: 60_000, captchaSkipsDelay: false },
}

export type BucketKind = 'pair' | 'account' | 'client'
export interface Bucket {
  kind: BucketKind
  key: string
}

export interface ThrottleState {
  captchaRequired: boolean
  /** Milliseconds until an attempt without a solved captcha is accepted; 0 when one is accepted now. */
  retryAfterMs: number
  /** Milliseconds until any attempt is accepted (the flood ceiling); 0 when one is accepted now. */
  hardRetryAfterMs: number
}

/** The delay after `failures` failures: none below the threshold, then doubling from the base up to the cap. */
export function delayFor(policy: ThrottlePolicy, failures: number): number {
  if (failures < policy.delayAfter) return 0
  return Math.min(policy.baseDelayMs * 2 ** Math.min(failures - policy.delayAfter, 30), policy.maxDelayMs)
}

export async function throttleState(db: D1Database, realm: string, buckets: Bucket[], now = Date.now()): Promise<ThrottleState> {
  const state: ThrottleState = { captchaRequired: false, retryAfterMs: 0, hardRetryAfterMs: 0 }
  if (!buckets.length) return state
  const { results } = await db
    .prepare(
      `SELECT kind, key, failures, last_failure_at FROM signin_throttle WHERE realm = ? AND (${buckets.map(() => '(kind = ? AND key = ?)').join(' OR ')})`,
    )
    .bind(realm, ...buckets.flatMap((b) => [b.kind, b.key]))
    .all<{ kind: BucketKind; key: string; failures: number; last_failure_at: string }>()
  for (const row of results) {
    const policy = THROTTLE[row.kind]
    const last = Date.parse(row.last_failure_at)
    if (now - last >= policy.windowMs) continue
    if (row.failures >= policy.captchaAfter) state.captchaRequired = true
    const wait = last + delayFor(policy, row.failures) - now
    if (policy.captchaSkipsDelay) state.retryAfterMs = Math.max(state.retryAfterMs, wait)
    else state.hardRetryAfterMs = Math.max(state.hardRetryAfterMs, wait)
  }
  return state
}

/** Counts one failure in each bucket (a bucket whose window has passed starts again from one). */
export async function recordFailure(db: D1Database, realm: string, buckets: Bucket[], now = Date.now()): Promise<void> {
  const at = new Date(now).toISOString()
  await db.batch(
    buckets.map((b) =>
      db
        .prepare(
          `INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES (?, ?, ?, 1, ?)
           ON CONFLICT (realm, kind, key) DO UPDATE SET
             failures = CASE WHEN last_failure_at < ? THEN 1 ELSE failures + 1 END, last_failure_at = excluded.last_failure_at`,
        )
        .bind(realm, b.kind, b.key, at, new Date(now - THROTTLE[b.kind].windowMs).toISOString()),
    ),
  )
}

/**
 * Forgets an account's failures: its account bucket and, after a successful sign-in, the pair it signed in from
 * (`pair`), or after a password reset every pair of the account. Other addresses' pairs and every address's own
 * bucket stay, so a guesser is not given a fresh start when the real user signs in.
 */
export async function clearAccountFailures(db: D1Database, realm: string, account: string, pair?: string): Promise<void> {
  await db
    .prepare(
      `DELETE FROM signin_throttle WHERE realm = ? AND ((kind = 'account' AND key = ?) OR (kind = 'pair' AND ${pair ? 'key = ?' : `substr(key, ${PAIR_PREFIX + 1}) = ?`}))`,
    )
    .bind(realm, account, pair ?? account)
    .run()
}

/** Length of a pair key's prefix: the address's SHA-256 (64 hex digits) and a colon. */
const PAIR_PREFIX = 65

/** The bucket key of an (account, client address) pair: the address's hash (never the address), then the account. */
export async function pairKey(account: string, address: string): Promise<string> {
  return `${await sha256Hex(address)}:${account.toLowerCase()}`
}
