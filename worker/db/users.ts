export interface SigninUser {
  nick: string
  name: string
  avatar_url: string
  origin_realm: string
  password_hash: string
  disabled: boolean
  roles: string[]
}

/** The user with this nick in the realm, with its roles in order, or null. */
export async function findUserForSignin(db: D1Database, realm: string, nick: string): Promise<SigninUser | null> {
  const [userRes, rolesRes] = await db.batch([
    db.prepare('SELECT nick, name, avatar_url, origin_realm, password_hash, disabled FROM user WHERE realm = ? AND nick = ?').bind(realm, nick),
    db.prepare('SELECT role FROM user_role WHERE realm = ? AND nick = ? ORDER BY position, role').bind(realm, nick),
  ])
  const u = userRes.results[0] as Omit<SigninUser, 'roles' | 'disabled'> & { disabled: number } | undefined
  if (!u) return null
  return { ...u, disabled: u.disabled === 1, roles: (rolesRes.results as { role: string }[]).map((r) => r.role) }
}

export async function setPasswordHash(db: D1Database, realm: string, nick: string, hash: string): Promise<void> {
  await db.prepare('UPDATE user SET password_hash = ?, updated_at = ? WHERE realm = ? AND nick = ?').bind(hash, new Date().toISOString(), realm, nick).run()
}
