/**
 * Slowing down password guessing. Failed sign-ins are counted per account and per client address (realm-wide
 * buckets in D1). An account's bucket demands a captcha after a few failures and then imposes a rising delay; an
 * address's bucket has much higher thresholds, so a whole school behind one NAT address is asked for a captcha
 * long before it is ever delayed. A bucket forgets its failures once its window passes without a new one.
 */
export interface ThrottlePolicy {
  windowMs: number
  captchaAfter: number
  delayAfter: number
  baseDelayMs: number
  maxDelayMs: number
}

export const THROTTLE: Record<BucketKind, ThrottlePolicy> = {
  account: { windowMs: 15 * 60_000, captchaAfter: 3, delayAfter: 5, baseDelayMs: 30_000, maxDelayMs: 15 * 60_000 },
  client: { windowMs: 60 * 60_000, captchaAfter: 20, delayAfter: 100, baseDelayMs: 1_000, maxDelayMs: 5 * 60_000 },
}

export type BucketKind = 'account' | 'client'
export interface Bucket {
  kind: BucketKind
  key: string
}

export interface ThrottleState {
  captchaRequired: boolean
  /** Milliseconds until another attempt is accepted; 0 when one is accepted now. */
  retryAfterMs: number
}

/** The delay after `failures` failures: none below the threshold, then doubling from the base up to the cap. */
export function delayFor(policy: ThrottlePolicy, failures: number): number {
  if (failures < policy.delayAfter) return 0
  return Math.min(policy.baseDelayMs * 2 ** Math.min(failures - policy.delayAfter, 30), policy.maxDelayMs)
}

export async function throttleState(db: D1Database, realm: string, buckets: Bucket[], now = Date.now()): Promise<ThrottleState> {
  const state: ThrottleState = { captchaRequired: false, retryAfterMs: 0 }
  if (!buckets.length) return state
  const { results } = await db
    .prepare(`SELECT kind, key, failures, last_failure_at FROM signin_throttle WHERE realm = ? AND (${buckets.map(() => '(kind = ? AND key = ?)').join(' OR ')})`)
    .bind(realm, ...buckets.flatMap((b) => [b.kind, b.key]))
    .all<{ kind: BucketKind; key: string; failures: number; last_failure_at: string }>()
  for (const row of results) {
    const policy = THROTTLE[row.kind]
    const last = Date.parse(row.last_failure_at)
    if (now - last >= policy.windowMs) continue
    if (row.failures >= policy.captchaAfter) state.captchaRequired = true
    state.retryAfterMs = Math.max(state.retryAfterMs, last + delayFor(policy, row.failures) - now)
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

/** Forgets an account's failures (successful sign-in, password reset). */
export async function clearAccountFailures(db: D1Database, realm: string, account: string): Promise<void> {
  await db.prepare(`DELETE FROM signin_throttle WHERE realm = ? AND kind = 'account' AND key = ?`).bind(realm, account).run()
}
