/**
 * Leases of live users (table `live_presence`, migration 0032): who is in which live room of a realm's environment,
 * for the realm's `max_users_per_environment` and `max_users_per_room` at join time (worker/lib/live-capacity.ts).
 */

/**
 * Takes or renews the lease of `nick` in (party, room) until `expires`, in one statement, only when the realm's
 * limits allow it: the user already holds a live lease in the realm, or the realm's distinct live users are fewer
 * than `max_users_per_environment` (-1: no limit); and, when `perRoom`, the user is already in that room or its
 * live users are fewer than `max_users_per_room`; or `exempt` (the channel's owner and admins: their lease is written
 * and counts, whatever the limits). Answers whether the lease was written, with the limits read.
 */
export async function takeLease(
  db: D1Database,
  realm: string,
  lease: { party: string; room: string; nick: string; now: string; expires: string; perRoom: boolean; exempt?: boolean },
): Promise<{ admitted: boolean; env: { max: number; n: number }; room: { max: number; n: number } }> {
  const args = [realm, lease.party, lease.room, lease.nick, lease.now, lease.expires, lease.perRoom ? 1 : 0, lease.exempt ? 1 : 0]
  const counts = `
    SELECT r.max_users_per_environment AS env_max, r.max_users_per_room AS room_max,
      (SELECT COUNT(DISTINCT p.nick) FROM live_presence p WHERE p.realm = ?1 AND p.expires_at > ?5) AS env_n,
      (SELECT COUNT(*) FROM live_presence p WHERE p.realm = ?1 AND p.party = ?2 AND p.room = ?3 AND p.expires_at > ?5) AS room_n,
      EXISTS (SELECT 1 FROM live_presence p WHERE p.realm = ?1 AND p.nick = ?4 AND p.expires_at > ?5) AS env_in,
      EXISTS (SELECT 1 FROM live_presence p WHERE p.realm = ?1 AND p.party = ?2 AND p.room = ?3 AND p.nick = ?4 AND p.expires_at > ?5) AS room_in
    FROM realm r WHERE r.code = ?1`
  const [write, read] = await db.batch([
    db
      .prepare(
        `INSERT INTO live_presence (realm, party, room, nick, joined_at, expires_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 FROM (${counts}) k
         WHERE ?8 = 1 OR ((k.env_in OR k.env_max < 0 OR k.env_n < k.env_max) AND (?7 = 0 OR k.room_in OR k.room_max < 0 OR k.room_n < k.room_max))
         ON CONFLICT (realm, party, room, nick) DO UPDATE SET expires_at = excluded.expires_at`,
      )
      .bind(...args),
    db.prepare(counts).bind(...args.slice(0, 5)),
  ])
  const k = (read.results[0] ?? { env_max: -1, room_max: -1, env_n: 0, room_n: 0 }) as { env_max: number; room_max: number; env_n: number; room_n: number }
  return { admitted: (write.meta.changes ?? 0) > 0, env: { max: k.env_max, n: k.env_n }, room: { max: k.room_max, n: k.room_n } }
}

/**
 * Ends the users' leases in (party, room) and drops the realm's leases that ran out before `now` (one batch).
 */
export async function endLease(db: D1Database, realm: string, lease: { party: string; room: string; nicks: readonly string[]; now: string }): Promise<void> {
  await db.batch([
    db
      .prepare('DELETE FROM live_presence WHERE realm = ? AND party = ? AND room = ? AND nick IN (SELECT value FROM json_each(?))')
      .bind(realm, lease.party, lease.room, JSON.stringify(lease.nicks)),
    db.prepare('DELETE FROM live_presence WHERE realm = ? AND expires_at <= ?').bind(realm, lease.now),
  ])
}

/**
 * The party's renewal of who is present in (party, room): each nick's lease is written or moved to `expires`,
 * whatever the limits (they were applied when the ticket was minted; someone present keeps their place), and the
 * room's other leases not taken or renewed since `stale` (a ticket minted but never used, a leave the party could not
 * report) end, as do the realm's leases that ran out. One batch.
 */
export async function renewLeases(
  db: D1Database,
  realm: string,
  lease: { party: string; room: string; nicks: readonly string[]; now: string; expires: string; stale: string },
): Promise<void> {
  const nicks = JSON.stringify(lease.nicks)
  await db.batch([
    db
      .prepare(
        `INSERT INTO live_presence (realm, party, room, nick, joined_at, expires_at)
         SELECT ?1, ?2, ?3, j.value, ?4, ?5 FROM json_each(?6) j WHERE true
         ON CONFLICT (realm, party, room, nick) DO UPDATE SET expires_at = excluded.expires_at`,
      )
      .bind(realm, lease.party, lease.room, lease.now, lease.expires, nicks),
    db
      .prepare('DELETE FROM live_presence WHERE realm = ?1 AND party = ?2 AND room = ?3 AND expires_at < ?4 AND nick NOT IN (SELECT value FROM json_each(?5))')
      .bind(realm, lease.party, lease.room, lease.stale, nicks),
    db.prepare('DELETE FROM live_presence WHERE realm = ? AND expires_at <= ?').bind(realm, lease.now),
  ])
}
