import type { LiveTxAnswer } from '#shared/schemas/channel-live'

/**
 * Transmission seconds counted by the live parties (table `live_tx_usage`, migration 0025; issue 20): the realm's
 * weekly transmission limit per user is checked by the party against the sum of a user's rows for the period.
 */

/**
 * Stores the party's absolute counts for (party, room) in one batch — each row keeps the highest count seen, so a
 * resend never adds twice — drops the rows of these users' earlier periods, and reads back each user's seconds here
 * and in the realm's other live rooms for the period.
 */
export async function recordTxUsage(
  db: D1Database,
  realm: string,
  at: { party: string; room: string; period: number; now: string },
  usage: Record<string, number>,
): Promise<LiveTxAnswer> {
  const nicks = Object.keys(usage)
  const writes = nicks.flatMap((nick) => [
    db
      .prepare(
        `INSERT INTO live_tx_usage (realm, nick, period_start, party, room, seconds, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (realm, nick, period_start, party, room)
         DO UPDATE SET seconds = MAX(seconds, excluded.seconds), updated_at = excluded.updated_at`,
      )
      .bind(realm, nick, at.period, at.party, at.room, usage[nick], at.now),
    db.prepare('DELETE FROM live_tx_usage WHERE realm = ? AND nick = ? AND period_start < ?').bind(realm, nick, at.period),
  ])
  const reads = nicks.map((nick) =>
    db
      .prepare(
        `SELECT COALESCE(SUM(CASE WHEN party = ?4 AND room = ?5 THEN seconds END), 0) AS here,
                COALESCE(SUM(CASE WHEN party = ?4 AND room = ?5 THEN 0 ELSE seconds END), 0) AS elsewhere
         FROM live_tx_usage WHERE realm = ?1 AND nick = ?2 AND period_start = ?3`,
      )
      .bind(realm, nick, at.period, at.party, at.room),
  )
  const results = await db.batch([...writes, ...reads])
  const out: LiveTxAnswer = { period_start: at.period, usage: {} }
  nicks.forEach((nick, i) => {
    const row = results[writes.length + i].results[0] as { here: number; elsewhere: number } | undefined
    out.usage[nick] = { here: row?.here ?? 0, elsewhere: row?.elsewhere ?? 0 }
  })
  return out
}
