import type { ErrorItem } from '#shared/schemas/error'
import { extraFieldsOf } from '../../db/extra-fields'
import type { User, UserCreate, UserUpdate } from '#shared/schemas/user'
import { getFile, persistFileStatement, uploadedFile } from '../../db/files'
import { getRealmRow, realmConfig } from '../../db/realms'
import { revokeUserSessionsStatement, type Auth } from '../../db/sessions'
import {
  existingNicks,
  insertUserStatements,
  revokeOtherSessionsStatement,
  rolePermissionSets,
  setRolesStatements,
  setSuperviseesStatements,
  updateUserStatement,
  type UserColumns,
} from '../../db/user-admin'
import { checkWordFilter } from '../../db/word-filter'
import { auditStatement } from '../../db/audit'
import { ROOT_ROLE, beyondCaller, isSelf, mayTouchRoot, refuseAboveUser } from '../../lib/ceiling'
import { ApiError, apiError } from '../../lib/errors'
import { extraFieldErrors, type ExtraFieldRule } from '../../lib/extra-fields'
import { hashPassword } from '../../lib/password'
import { newUserCreditStatements } from '../../db/ledger'
import { origin, type Ctx } from '../context'

/** What one user write needs to know besides its body; imports share it across rows. */
export interface UserWriteContext {
  realm: string
  roles: Map<string, Set<string>>
  extraRules: ExtraFieldRule[]
  allowPicture: boolean
  filesBaseUrl: string
  /** Nicks that exist or will (rows earlier in an import); supervisees must be among them. */
  known?: Set<string>
  /** The realm's ledger settings: a new user gets the credits for new users (seed 002 realm limits). */
  ledger: { code: string; ledger_enabled?: unknown; ledger_new_user_credits?: unknown }
}

export async function userWriteContext(c: Ctx, auth: Auth): Promise<UserWriteContext> {
  const db = c.env.DB
  const [roles, rules, realm] = await Promise.all([rolePermissionSets(db, auth.realm), extraFieldsOf(db, auth.realm, 'user'), getRealmRow(db, auth.realm)])
  return {
    realm: auth.realm,
    roles,
    extraRules: rules,
    allowPicture: realm?.allow_custom_user_profile_picture === 1,
    filesBaseUrl: realm ? realmConfig(realm, origin(c), c.get('hostRealm') === null).files_base_url : '/files/',
    ledger: { code: auth.realm, ledger_enabled: realm?.ledger_enabled ?? 0, ledger_new_user_credits: realm?.ledger_new_user_credits ?? 0 },
  }
}

/**
 * The stored nick: the realm's suffix is appended to a bare nick (as at sign-in); a nick that already has an
 * `@suffix` is kept, to name users who came from another realm. A new user must carry the realm's own suffix.
 */
export function realmNick(nick: string, suffix: string, creating: boolean): string {
  if (!nick) return nick
  if (!nick.includes('@')) return suffix ? `${nick}${suffix}` : nick
  if (creating && suffix && !nick.endsWith(suffix)) throw apiError(422, 'nick_suffix', 'validation.nick_suffix', 'nick', suffix)
  return nick
}

/** Editing is refused when the user belongs to another realm (seed 000 §6, seed 002 §5). */
export function refuseForeign(auth: Auth, user: Pick<User, 'origin_realm' | 'nick'>) {
  if (user.origin_realm !== auth.realm) {
    throw apiError(403, 'origin_realm', `User ${user.nick} comes from realm ${user.origin_realm}; edit them there.`, 'origin_realm', user.origin_realm)
  }
}

const fail = (errors: ErrorItem[]) => {
  if (errors.length) throw new ApiError(422, errors)
}

/** Roles can only be given or taken away by someone holding every permission they grant (no escalation). */
function checkRoles(auth: Auth, w: UserWriteContext, before: string[], after: string[], self: boolean) {
  fail(after.filter((r) => !w.roles.has(r)).map((r) => ({ field: 'roles', cause: 'not_found', value: r, message: 'validation.role_unknown' })))
  const changed = [...after.filter((r) => !before.includes(r)), ...before.filter((r) => !after.includes(r))]
  for (const role of changed) {
    const beyond = beyondCaller(auth, w.roles.get(role) ?? [])
    if (beyond) throw apiError(403, 'escalation', `You cannot give or remove role ${role}: it grants ${beyond}, which you do not hold.`, 'roles', role)
  }
  // `admin` grants what `root` grants; making (or unmaking) a root account is still root's, like changing one.
  if (changed.includes(ROOT_ROLE) && !mayTouchRoot(auth)) throw apiError(403, 'root_only', 'privilege.root_only', 'roles', ROOT_ROLE)
  if (self && changed.length) {
    const kept = new Set(after.flatMap((r) => [...(w.roles.get(r) ?? [])]))
    const lost = ['dashboard_dashboard_access', 'mas_user_edit'].find((p) => auth.permissions.has(p) && !kept.has(p))
    if (lost) throw apiError(409, 'lockout', `This change would remove ${lost} from your own access.`, 'roles', lost)
  }
}

type Body = Partial<UserCreate> & UserUpdate

/**
 * The statements and audit record of a user create or update, after every rule: another user only below the
 * editor (user ceiling), name through the word filter, roles without escalation or self-lockout, supervisees in the
 * realm, extra fields, profile picture allowed by the realm. Throws an ApiError (nothing written) when a rule fails.
 */
export async function planUserWrite(c: Ctx, auth: Auth, w: UserWriteContext, body: Body, existing: User | null): Promise<D1PreparedStatement[]> {
  const db = c.env.DB
  const nick = existing?.nick ?? String(body.nick)
  const self = isSelf(auth, w.realm, nick)
  // Any field of another user (e-mail and password included: either is enough to take the account over).
  if (existing) refuseAboveUser(auth, w.realm, existing, w.roles)
  if (body.name !== undefined && (await checkWordFilter(db, w.realm, body.name)).matches.length) {
    throw apiError(422, 'word_filter', 'validation.word_filter', 'name', body.name)
  }
  const roles = body.roles ?? existing?.roles ?? []
  checkRoles(auth, w, existing?.roles ?? [], roles, self)
  if (body.supervisees) {
    const known = w.known ?? (await existingNicks(db, w.realm, body.supervisees))
    fail(
      body.supervisees
        .filter((s) => s === nick || !known.has(s))
        .map((s) => ({
          field: 'supervisees',
          cause: s === nick ? 'invalid' : 'not_found',
          value: s,
          message: s === nick ? 'validation.supervisee_self' : 'validation.supervisee_unknown',
        })),
    )
  }
  // Values of fields deleted since are dropped; only keys sent now can be unknown.
  const declared = new Set(w.extraRules.map((r) => r.key))
  const kept = Object.fromEntries(Object.entries(existing?.extra ?? {}).filter(([k]) => declared.has(k)))
  const extra = { ...kept, ...(body.extra ?? {}) }
  fail(extraFieldErrors(w.extraRules, extra))

  const changes: Omit<Partial<UserColumns>, 'nick' | 'origin_realm'> = {
    name: body.name,
    email: body.email,
    phone: body.phone,
    external_id: body.external_id,
    invisible: body.invisible,
    bot: body.bot,
    hd_support: body.hd_support,
    extra: body.extra !== undefined ? extra : undefined,
  }
  const more: D1PreparedStatement[] = []
  if (body.avatar_file_id !== undefined) {
    if (!w.allowPicture)
      throw apiError(403, 'disabled', 'This realm does not allow custom profile pictures.', 'avatar_file_id', 'allow_custom_user_profile_picture')
    if (body.avatar_file_id === '') changes.avatar_url = ''
    else {
      const file = await getFile(db, w.realm, body.avatar_file_id)
      if (!file || file.kind !== 'image') throw apiError(422, 'not_found', 'validation.file.required', 'avatar_file_id', body.avatar_file_id)
      changes.avatar_url = uploadedFile(file, w.filesBaseUrl).cdn_full_url
      more.push(persistFileStatement(db, w.realm, file.id))
    }
  }
  if (body.password !== undefined) {
    changes.password_hash = await hashPassword(body.password)
    // A new password ends the user's other sessions (their own current one stays when they change it themselves).
    more.push(self ? revokeOtherSessionsStatement(db, w.realm, nick, auth.tokenHash) : revokeUserSessionsStatement(db, w.realm, nick))
  }

  const statements: D1PreparedStatement[] = []
  if (!existing) {
    statements.push(...insertUserStatements(db, w.realm, { ...(changes as UserColumns), nick, name: body.name ?? nick, origin_realm: w.realm }, roles))
    statements.push(...newUserCreditStatements(db, w.ledger, nick, auth.nick))
  } else {
    if (Object.values(changes).some((v) => v !== undefined)) statements.push(updateUserStatement(db, w.realm, nick, changes))
    if (body.roles) statements.push(...setRolesStatements(db, w.realm, nick, roles))
  }
  if (body.supervisees) statements.push(...setSuperviseesStatements(db, w.realm, nick, body.supervisees))
  statements.push(...more)

  const view = (u: Partial<User>) => ({
    name: u.name,
    email: u.email,
    phone: u.phone,
    external_id: u.external_id,
    avatar_url: u.avatar_url,
    invisible: u.invisible,
    bot: u.bot,
    hd_support: u.hd_support,
    extra: u.extra,
    roles: u.roles,
    supervisees: u.supervisees,
  })
  const { password_hash: _hash, ...shown } = changes
  const after = {
    ...view(existing ?? {}),
    ...Object.fromEntries(
      Object.entries(view({ ...shown, roles: body.roles ?? roles, supervisees: body.supervisees } as Partial<User>)).filter(([, v]) => v !== undefined),
    ),
  }
  if (body.password !== undefined) Object.assign(after, { password: 'changed' })
  statements.push(
    auditStatement(db, {
      realm: w.realm,
      actor: auth.nick,
      actorRealm: auth.realm,
      action: existing ? 'update' : 'create',
      entity: 'user',
      entityId: nick,
      before: existing ? view(existing) : undefined,
      after,
      secrets: ['password'],
      requestId: c.get('requestId'),
    }),
  )
  return statements
}
