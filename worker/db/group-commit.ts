/**
 * Group commit: D1 batches for one key (a transfer's paying account) sent while an earlier batch for that key is in
 * flight wait, and go together as ONE batch (one D1 transaction) when it is done. Each caller gets the results of its
 * own statements.
 *
 * A batch is all or nothing, so when a grouped batch fails (one movement would overdraw the wallet, a key is taken,
 * remembered reads are stale, …) nothing of it was written and every member's statements run again alone, in their
 * order of arrival: each then succeeds or fails exactly as it would have without the group, and its caller maps its
 * own error as before. Inside a grouped batch the members' statements run one after the other in one transaction, so
 * every constraint and trigger (the balance CHECK, the entries' sum, the idempotency key's uniqueness) holds for each
 * member as in a batch of its own, and a later member sees the balances the earlier ones left.
 *
 * Every batch is sent by a member from its own request: the first member of the next group is handed its turn and
 * sends the group's batch itself, so no request does I/O on behalf of another that may already have answered.
 * Lanes are per D1 binding object and key, per isolate.
 */

/** Members of one batch at most (a transfer is about five statements). */
export const GROUP_MAX = 16

type Outcome = { ok: true; results: D1Result[] } | { ok: false; error: unknown }

interface Member {
  statements: D1PreparedStatement[]
  /** Settles with the member's outcome, or with 'lead' when it is its turn to send the next batch. */
  settle(value: Outcome | 'lead'): void
}

interface Lane {
  /** True while a member holds the turn (is sending a batch). */
  busy: boolean
  waiting: Member[]
}

const lanes = new WeakMap<D1Database, Map<string, Lane>>()

/** What groupedBatch did, for tests and the bench: batches sent, members sent in groups of two or more, re-runs alone. */
export const groupStats = { batches: 0, grouped: 0, alone: 0 }

export async function groupedBatch(db: D1Database, key: string, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  let byKey = lanes.get(db)
  if (!byKey) {
    byKey = new Map()
    lanes.set(db, byKey)
  }
  let lane = byKey.get(key)
  if (!lane) {
    lane = { busy: false, waiting: [] }
    byKey.set(key, lane)
  }
  let settle!: Member['settle']
  const settled = new Promise<Outcome | 'lead'>((resolve) => (settle = resolve))
  const me: Member = { statements, settle }
  lane.waiting.push(me)
  if (!lane.busy) {
    lane.busy = true
    me.settle('lead')
  }
  const first = await settled
  const outcome = first === 'lead' ? await lead(db, lane, me) : first
  if (lane.waiting.length === 0 && !lane.busy) byKey.delete(key)
  if (!outcome.ok) throw outcome.error
  return outcome.results
}

/** Sends the batch of the waiting members (`me` first), settles the others, and hands the turn to the next waiting. */
async function lead(db: D1Database, lane: Lane, me: Member): Promise<Outcome> {
  const group = lane.waiting.splice(0, GROUP_MAX)
  const outcomes = new Map<Member, Outcome>()
  try {
    groupStats.batches++
    if (group.length === 1) {
      outcomes.set(me, await attempt(db, me.statements))
    } else {
      groupStats.grouped += group.length
      const together = await attempt(
        db,
        group.flatMap((m) => m.statements),
      )
      if (together.ok) {
        let at = 0
        for (const m of group) {
          outcomes.set(m, { ok: true, results: together.results.slice(at, at + m.statements.length) })
          at += m.statements.length
        }
      } else {
        // Nothing of the group was written: each member alone, in order, as it would have run without the group.
        for (const m of group) {
          groupStats.alone++
          outcomes.set(m, await attempt(db, m.statements))
        }
      }
    }
  } finally {
    for (const m of group) if (m !== me) m.settle(outcomes.get(m) ?? { ok: false, error: new Error('group commit: batch not sent') })
    const next = lane.waiting[0]
    if (next) next.settle('lead')
    else lane.busy = false
  }
  return outcomes.get(me) ?? { ok: false, error: new Error('group commit: batch not sent') }
}

async function attempt(db: D1Database, statements: D1PreparedStatement[]): Promise<Outcome> {
  try {
    return { ok: true, results: await db.batch(statements) }
  } catch (error) {
    return { ok: false, error }
  }
}
