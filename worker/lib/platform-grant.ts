import * as v from 'valibot'
import { RealmCode } from '#shared/schemas/common'
import { PERMISSIONS, PLATFORM_ROLE } from '#shared/schemas/permission'
import { Nick } from '#shared/schemas/user'

/**
 * The SQL of `npm run platform:grant -- <realm> <nick>`: the out-of-band bootstrap of a platform operator (nobody in
 * the product can grant platform-level permissions without holding them). `wrangler d1 execute` takes no bound
 * parameters, so both names are validated with the product's own schemas and quoted; nothing else enters the SQL.
 */
export interface PlatformGrant {
  realm: string
  nick: string
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`

/** The realm and nick, validated (a nick without `@` also matches the realm's suffix, as at sign-in). */
export function parseGrant(realm: unknown, nick: unknown): PlatformGrant {
  return { realm: v.parse(RealmCode, realm), nick: v.parse(Nick, nick) }
}

/** Matches the user's row `u`: the nick as given, or with the realm's nick suffix appended. */
function userMatch(g: PlatformGrant): string {
  const suffixed = g.nick.includes('@') ? '' : ` OR u.nick = ${quote(g.nick)} || (SELECT nick_suffix FROM realm WHERE code = ${quote(g.realm)})`
  return `u.realm = ${quote(g.realm)} AND (u.nick = ${quote(g.nick)}${suffixed})`
}

/** Finds the account (run first: nothing is written for an unknown user). */
export function findUserSql(g: PlatformGrant): string {
  return `SELECT u.nick AS nick FROM user u WHERE ${userMatch(g)}`
}

/**
 * Creates the `platform` role in the realm when missing (every catalogue permission, topping up a role created before
 * a permission was added), gives it to the user after their other roles, and records it in the realm's audit log.
 * Running it twice changes nothing more.
 */
export function grantSql(g: PlatformGrant): string[] {
  const realm = quote(g.realm)
  const role = quote(PLATFORM_ROLE)
  // Catalogue names are plain identifiers, so the JSON list needs no escaping beyond the SQL quote.
  const permissions = quote(JSON.stringify(PERMISSIONS))
  return [
    `INSERT INTO role (realm, role, description, updated_by) SELECT code, ${role}, 'Platform operator: every permission, in every realm, platform-level ones included.', 'platform:grant' FROM realm WHERE code = ${realm} ON CONFLICT DO NOTHING`,
    `INSERT INTO role_permission (realm, role, permission) SELECT ${realm}, ${role}, p.value FROM json_each(${permissions}) p WHERE EXISTS (SELECT 1 FROM role WHERE realm = ${realm} AND role = ${role}) ON CONFLICT DO NOTHING`,
    `INSERT INTO audit_log (realm, at, actor, actor_realm, action, entity, entity_id, changes)
     SELECT u.realm, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'platform:grant', '', 'update', 'user', u.nick, '{"roles":[null,"+${PLATFORM_ROLE}"]}'
     FROM user u WHERE ${userMatch(g)} AND NOT EXISTS (SELECT 1 FROM user_role r WHERE r.realm = u.realm AND r.nick = u.nick AND r.role = ${role})`,
    `INSERT INTO user_role (realm, nick, role, position)
     SELECT u.realm, u.nick, ${role}, COALESCE((SELECT MAX(r.position) + 1 FROM user_role r WHERE r.realm = u.realm AND r.nick = u.nick), 0)
     FROM user u WHERE ${userMatch(g)} ON CONFLICT DO NOTHING`,
  ]
}
