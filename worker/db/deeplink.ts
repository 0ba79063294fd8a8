/**
 * What the conference deep-link page shows (issue 13): a channel of the realm (name and avatar only: the page is
 * public) and the realm's branding and app links, read in one batch. The realm row must be live.
 */
export interface DeeplinkRealm {
  code: string
  name: string
  logo_url: string
  app_scheme: string
  ios_store_url: string
  android_store_url: string
  web_client_url: string
}

export async function deeplinkTarget(db: D1Database, realm: string, channelId: string) {
  const [r, ch] = await db.batch([
    db
      .prepare('SELECT code, name, logo_url, app_scheme, ios_store_url, android_store_url, web_client_url FROM realm WHERE code = ? AND deleted_at IS NULL')
      .bind(realm),
    db.prepare('SELECT id, name, avatar_url FROM channel WHERE realm = ? AND id = ?').bind(realm, channelId),
  ])
  return {
    realm: (r.results[0] as DeeplinkRealm | undefined) ?? null,
    channel: (ch.results[0] as { id: string; name: string; avatar_url: string } | undefined) ?? null,
  }
}
