import type { RealmRtc, RtcServersBody } from '#shared/schemas/realm-settings'

/** A realm's STUN/TURN servers (table `realm_rtc`, migration 0026; issue 20), with the TURN credential in clear. */
export async function getRealmRtc(db: D1Database, realm: string): Promise<RealmRtc | null> {
  const row = await db
    .prepare('SELECT stun_urls, turn_urls, turn_username, turn_credential, updated_at FROM realm_rtc WHERE realm = ?')
    .bind(realm)
    .first<{ stun_urls: string; turn_urls: string; turn_username: string; turn_credential: string; updated_at: string }>()
  if (!row) return null
  return {
    stun_urls: JSON.parse(row.stun_urls) as string[],
    turn_urls: JSON.parse(row.turn_urls) as string[],
    turn_username: row.turn_username,
    turn_credential: row.turn_credential,
    updated_at: row.updated_at,
  }
}

/** Writes the realm's servers (one row per realm). */
export function setRealmRtcStatement(db: D1Database, realm: string, rtc: RtcServersBody, by: string, now: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO realm_rtc (realm, stun_urls, turn_urls, turn_username, turn_credential, updated_at, updated_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (realm) DO UPDATE SET stun_urls = excluded.stun_urls, turn_urls = excluded.turn_urls, turn_username = excluded.turn_username,
         turn_credential = excluded.turn_credential, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    )
    .bind(realm, JSON.stringify(rtc.stun_urls), JSON.stringify(rtc.turn_urls), rtc.turn_username, rtc.turn_credential, now, by)
}
