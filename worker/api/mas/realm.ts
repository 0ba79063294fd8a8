import { MetaverseRoomCreate, MetaverseRoomUpdate, metaverseRoomEntity } from '#shared/schemas/metaverse'
import { realmTreeScope } from '../../db/realms'
import { ExemptionBody, WordFilterBody, RealmCreateBody, RealmUpdateBody, RtcServersBody, type RealmRtc } from '#shared/schemas/realm-settings'
import { getRealmRtc, setRealmRtcStatement } from '../../db/realm-rtc'
import { getExemptionDomains, getWordFilter, setExemptionStatements, setWordFilterStatements } from '../../db/word-filter'
import { randomToken, sha256Hex } from '../../lib/crypto'
import { crud, decodeRow, getRawRow } from '../../lib/entity'
import { type AppEnv, type Ctx, parse, pathParam, origin } from '../context'
import { Hono } from 'hono'
import { RealmCode } from '#shared/schemas/common'
import { HandoverHash } from '#shared/schemas/handover'
import { SECRET_MASK, maskSecret } from '#shared/schemas/entity'
import * as v from 'valibot'
import { REALM_RESTORE_DAYS, RealmDeleteBody, realmEntity, type Realm, type RealmDeletion } from '#shared/schemas/realm'
import { getGlobalConfig } from '../../db/global-config'
import { realmDefaults, realmExtras } from '../../db/realm-admin'
import {
  consoleOrigin,
  deletedRealms,
  getRealmRow,
  isLiveRealm,
  isRealmDescendant,
  liveChildRealm,
  liveRealms,
  realmConfig,
  realmHomeUrl,
  realmInScope,
  restoreRealmStatement,
  softDeleteRealmStatement,
} from '../../db/realms'
import { runBatch } from '../../db/batch'
import { createSession, revokeSession, type Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { prepareRealmCreate, prepareRealmUpdate, realmWriteStatements } from './realm-write'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { createHandover } from './session'

/** Realms a caller administers (the scope lives with the realm queries; re-exported for the API modules). */
export { realmTreeScope }

/** True when the caller administers realm `code` (it lies in their realm tree). */
export async function inTree(c: Ctx, auth: Pick<Auth, 'permissions' | 'home_realm'>, code: string): Promise<boolean> {
  const scope = realmTreeScope(auth)
  return realmInScope(c.env.DB, code, scope)
}

/** Write-only secrets: a masked or empty value sent back by the UI keeps the stored one. */
export function keepSecrets(values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values }
  for (const [name, def] of Object.entries(realmEntity.fields)) {
    if (def.type === 'secret' && typeof out[name] === 'string' && (out[name] === '' || String(out[name]).startsWith(SECRET_MASK))) delete out[name]
  }
  return out
}

const DeletedQuery = v.object({
  deleted: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'validation.picklist'),
      v.transform((x) => x === 'true'),
    ),
    'false',
  ),
})
const DAY_MS = 24 * 3_600_000

/** PUT /mas/realm/{code}/change: the target realm; handover_state is the SHA-256 of the state the starting browser keeps (needed for a handover code). */
const RealmChangeBody = v.object({ leaf_realm: RealmCode, handover_state: v.optional(HandoverHash) })

export const realm = new Hono<AppEnv>()
  /** GET /mas/realm/{code}/config: public configuration of a realm. */
  .get(
    '/:code/config',
    guarded('public', async (c) => {
      const code = parse(RealmCode, pathParam(c, 'code'))
      // A console page's host realm comes read with the page's host lookup (worker/index.ts).
      const pre = c.get('realmPrefetch')
      const row = pre?.code === code ? pre : await getRealmRow(c.env.DB, code)
      if (!row) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
      return c.json(realmConfig(row, origin(c), c.get('hostRealm') === null))
    }),
  )
  /**
   * PUT /mas/realm/{realm}/change (seed 000 §4 realm switch): `{realm}` is the realm the session acts in, `leaf_realm`
   * the target. Allowed targets: every realm with mas_realm_list_all, else the caller's home realm and its
   * descendants. Answers a new token bound to the target (the old one is revoked), the target's configuration and
   * the address of its console when it has its own host, with a one-time handover code when that host is another.
   */
  .put(
    '/:code/change',
    guardedJson({ any: ['mas_realm_list', 'mas_realm_list_all'] }, RealmChangeBody, async (c, auth, body) => {
      const code = parse(RealmCode, pathParam(c, 'code'))
      if (code !== auth.realm) throw apiError(400, 'realm', `The session acts in realm ${auth.realm}.`, 'realm', code)
      const target = await getRealmRow(c.env.DB, body.leaf_realm)
      if (!target) throw apiError(404, 'not_found', `Realm ${body.leaf_realm} was not found.`, 'leaf_realm', body.leaf_realm)
      if (!(await inTree(c, auth, target.code))) throw apiError(403, 'forbidden', `Realm ${target.code} is outside your realms.`, 'leaf_realm', target.code)
      const homeUrl = await realmHomeUrl(c.env.DB, target, c.req.url)
      // A host bound to one realm cannot serve another: the target needs a console address of its own.
      if (c.get('hostRealm') !== null && target.code !== c.get('hostRealm') && homeUrl === null) {
        throw apiError(409, 'realm_host', `Realm ${target.code} has no console address of its own; switch from a multi-realm host.`, 'leaf_realm', target.code)
      }
      const session = await createSession(c.env.DB, auth.home_realm, auth.nick, { userAgent: c.req.header('user-agent'), activeRealm: target.code })
      // From a realm's own host the console moves to the target's host, which cannot read this host's cookie: it claims
      // the session with a one-time code, bound to the starting browser's state (no state, no code: a code that is not
      // bound could sign a victim's browser in to someone else's session). This host is one of the session's realm, so
      // its origin is where the target host sends the browser back to vouch for it. Multi-realm hosts serve every realm,
      // so the console stays there.
      const otherHost = c.get('hostRealm') !== null && homeUrl !== null && new URL(homeUrl).host !== new URL(c.req.url).host
      const handover =
        otherHost && body.handover_state
          ? { stateHash: body.handover_state, origin: consoleOrigin(new URL(c.req.url).hostname, c.req.url), targetUrl: homeUrl! }
          : null
      const answer = {
        auth_token: session.token,
        device_id: session.deviceId,
        expires_at: session.expiresAt,
        realm: target.code,
        nick: auth.nick,
        origin_realm: auth.origin_realm,
        config: realmConfig(target, origin(c), c.get('hostRealm') === null),
        home_url: homeUrl,
        handover_code: handover ? await createHandover(c.env.DB, await sha256Hex(session.token), target.code, handover) : null,
      }
      // Only once the answer is ready: a failure above must not leave the user signed out of both realms.
      await revokeSession(c.env.DB, auth.tokenHash)
      return c.json(answer)
    }),
  )
  /** GET /mas/realm/defaults: what a new realm gets for the fields not sent (the create form starts from it). */
  .get(
    '/defaults',
    guarded({ all: ['mas_realm_create'] }, async (c) => {
      const global = await getGlobalConfig(c.env.DB)
      return c.json({ ...(await realmDefaults(c.env.DB)), time_zone: global.default_time_zone, allowed_signin: global.default_allowed_signin })
    }),
  )
  .route(
    '/',
    crud(realmEntity, {
      // An edit screen reads what it edits, so mas_realm_edit also reads a realm.
      // Deleting is a soft delete with its own handler (below), not crud's delete.
      permissions: {
        list: ['mas_realm_list', 'mas_realm_list_all'],
        get: ['mas_realm_get', 'mas_realm_edit'],
        create: 'mas_realm_create',
        edit: 'mas_realm_edit',
      },
      scope: (_c, auth) => liveRealms(realmTreeScope(auth)),
      // `?deleted=true` lists the deleted realms of the caller's tree (the console's restore view).
      listScope: (c, auth) =>
        parse(DeletedQuery, { deleted: c.req.query('deleted') }).deleted ? deletedRealms(realmTreeScope(auth)) : liveRealms(realmTreeScope(auth)),
      create: RealmCreateBody,
      update: RealmUpdateBody,
      beforeCreate: async (c, auth, body) => {
        const parent = body.parent_code ?? (auth.permissions.has('mas_realm_list_all') ? null : auth.realm)
        if (parent && !(await inTree(c, auth, parent))) throw apiError(403, 'forbidden', `Realm ${parent} is outside your realms.`, 'parent_code', parent)
        if (parent && !(await isLiveRealm(c.env.DB, parent))) throw apiError(404, 'not_found', `Realm ${parent} was not found.`, 'parent_code', parent)
        const now = new Date().toISOString()
        return prepareRealmCreate(c, auth, { ...keepSecrets(body), parent_code: parent, created_at: now, updated_at: now, updated_by: auth.nick })
      },
      beforeUpdate: async (c, auth, body, existing: Realm) => {
        if (body.parent_code !== undefined && body.parent_code !== existing.parent_code) {
          if (body.parent_code && !(await inTree(c, auth, body.parent_code))) {
            throw apiError(403, 'forbidden', `Realm ${body.parent_code} is outside your realms.`, 'parent_code', body.parent_code)
          }
          if (body.parent_code && !(await isLiveRealm(c.env.DB, body.parent_code))) {
            throw apiError(404, 'not_found', `Realm ${body.parent_code} was not found.`, 'parent_code', body.parent_code)
          }
          if (body.parent_code && (await isRealmDescendant(c.env.DB, body.parent_code, existing.code))) {
            throw apiError(422, 'cycle', 'A realm cannot be placed under itself or one of its descendants.', 'parent_code', body.parent_code)
          }
          if (!body.parent_code && !auth.permissions.has('mas_realm_list_all')) {
            throw apiError(403, 'forbidden', 'Only mas_realm_list_all may create top-level realms.', 'parent_code', null)
          }
        }
        return prepareRealmUpdate(c, auth, existing, { ...keepSecrets(body), updated_at: new Date().toISOString(), updated_by: auth.nick })
      },
      statements: (c, auth, write) => realmWriteStatements(c, auth, write),
      expand: async (c, row) => ({ ...row, ...(await realmExtras(c.env.DB, String(row.code))) }),
    }),
  )
  /**
   * DELETE /mas/realm/{code} with `{ confirm: "<code>" }`: a soft delete. The realm disappears from lists, the realm
   * switch, its hosts, its public configuration and sign-in, and its sessions stop working, but no row is removed:
   * it can be restored for REALM_RESTORE_DAYS days, then the scheduled purge (worker/db/purge.ts) removes it. Its hosts
   * stay reserved until then. Refused for the caller's own realm and for a realm with live child realms.
   */
  .delete(
    '/:code',
    guardedJson({ all: ['mas_realm_delete'] }, RealmDeleteBody, async (c, auth, body) => {
      const code = parse(RealmCode, pathParam(c, 'code'))
      const raw = await getRawRow(c.env.DB, realmEntity, liveRealms(realmTreeScope(auth)), code)
      if (!raw) throw apiError(404, 'not_found', `realm ${code} was not found.`, 'code', code)
      if (body.confirm !== code) throw apiError(422, 'confirm', 'validation.realm_confirm', 'confirm', body.confirm)
      if (code === auth.realm || code === auth.home_realm) throw apiError(409, 'conflict', 'You cannot delete the realm you are signed in to.', 'code', code)
      const child = await liveChildRealm(c.env.DB, code)
      if (child) throw apiError(409, 'conflict', `Realm ${code} still has child realm ${child}.`, 'code', code)
      const deletedAt = new Date()
      const after = { deleted_at: deletedAt.toISOString(), deleted_by: auth.nick }
      await runBatch(c.env.DB, [
        softDeleteRealmStatement(c.env.DB, code, { at: after.deleted_at, by: auth.nick, byRealm: auth.realm }),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'delete',
          entity: 'realm',
          entityId: code,
          before: { deleted_at: null, deleted_by: null },
          after,
          requestId: c.get('requestId'),
        }),
      ])
      const answer: RealmDeletion = {
        code,
        name: String(raw.name),
        ...after,
        purge_after: new Date(deletedAt.getTime() + REALM_RESTORE_DAYS * DAY_MS).toISOString(),
      }
      return c.json(answer)
    }),
  )
  /**
   * POST /mas/realm/{code}/restore: brings a deleted realm of the caller's tree back as it was (hosts, users, sessions
   * still in time), within REALM_RESTORE_DAYS days of its deletion and only under a live parent. Needs mas_realm_delete,
   * like the delete it undoes.
   */
  .post(
    '/:code/restore',
    guarded({ all: ['mas_realm_delete'] }, async (c, auth) => {
      const code = parse(RealmCode, pathParam(c, 'code'))
      const raw = await getRawRow(c.env.DB, realmEntity, deletedRealms(realmTreeScope(auth)), code)
      if (!raw) throw apiError(404, 'not_found', `No deleted realm ${code} was found.`, 'code', code)
      const deletedAt = String(raw.deleted_at)
      if (Date.now() >= Date.parse(deletedAt) + REALM_RESTORE_DAYS * DAY_MS) {
        throw apiError(410, 'restore_expired', 'resources.realm.restore_expired', 'code', deletedAt)
      }
      if (raw.parent_code && !(await isLiveRealm(c.env.DB, String(raw.parent_code)))) {
        throw apiError(409, 'parent_deleted', 'resources.realm.parent_deleted', 'parent_code', raw.parent_code)
      }
      const now = new Date().toISOString()
      await runBatch(c.env.DB, [
        restoreRealmStatement(c.env.DB, code, now, auth.nick),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'restore',
          entity: 'realm',
          entityId: code,
          before: { deleted_at: deletedAt, deleted_by: raw.deleted_by },
          after: { deleted_at: null, deleted_by: null },
          requestId: c.get('requestId'),
        }),
      ])
      const row = (await getRealmRow(c.env.DB, code))!
      return c.json({ ...decodeRow(realmEntity, row), ...(await realmExtras(c.env.DB, code)) })
    }),
  )

/** The servers as the API answers them: the TURN credential masked (none stored: no servers). */
function maskedRtc(rtc: RealmRtc | null): RealmRtc {
  if (!rtc) return { stun_urls: [], turn_urls: [], turn_username: '', turn_credential: '', updated_at: null }
  return { ...rtc, turn_credential: rtc.turn_credential ? maskSecret(rtc.turn_credential) : '' }
}

/** The realm named in the path when the caller administers it; 404 otherwise (existence is not revealed). */
/**
 * Replaces one of the path realm's lists (the word filter's sentences, the exemption domains) in one batch with its
 * audit entry (before and after, sorted), and answers the list as stored.
 */
async function replaceRealmList(
  c: Ctx,
  auth: Auth,
  entity: string,
  key: string,
  list: string[],
  read: (db: D1Database, realm: string) => Promise<string[]>,
  write: (db: D1Database, realm: string, list: string[]) => D1PreparedStatement[],
): Promise<string[]> {
  const realm = await pathRealm(c, auth, 'realm')
  const before = await read(c.env.DB, realm)
  await runBatch(c.env.DB, [
    ...write(c.env.DB, realm, list),
    auditStatement(c.env.DB, {
      realm,
      actor: auth.nick,
      actorRealm: auth.realm,
      action: 'update',
      entity,
      entityId: realm,
      before: { [key]: before },
      after: { [key]: [...list].sort() },
      requestId: c.get('requestId'),
    }),
  ])
  return read(c.env.DB, realm)
}

async function pathRealm(c: Ctx, auth: Auth, param: string): Promise<string> {
  const code = parse(RealmCode, pathParam(c, param))
  if (code !== auth.realm && !(await inTree(c, auth, code))) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  if (!(await isLiveRealm(c.env.DB, code))) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  return code
}

/** Per-realm settings with their own calls, under /mas/realm/{realm}: word filter, exemption domains, metaverse rooms. */
export const realmSettings = new Hono<AppEnv>()
  /** GET /mas/realm/{realm}/word_filter: `{ sentences }`. */
  .get(
    '/:realm/word_filter',
    guarded({ all: ['mas_word_filter_get'] }, async (c, auth) => c.json({ sentences: await getWordFilter(c.env.DB, await pathRealm(c, auth, 'realm')) })),
  )
  /** PUT /mas/realm/{realm}/word_filter: replaces the sentences (trimmed, lowercase, without repeats). */
  .put(
    '/:realm/word_filter',
    guardedJson({ all: ['mas_word_filter_edit'] }, WordFilterBody, async (c, auth, { sentences }) =>
      c.json({ sentences: await replaceRealmList(c, auth, 'word_filter', 'sentences', sentences, getWordFilter, setWordFilterStatements) }),
    ),
  )
  /** GET /mas/realm/{realm}/exemption: `{ domains }` (the exemption list of seed 002 §3). */
  .get(
    '/:realm/exemption',
    guarded({ any: ['mas_realm_get', 'mas_realm_edit'] }, async (c, auth) =>
      c.json({ domains: await getExemptionDomains(c.env.DB, await pathRealm(c, auth, 'realm')) }),
    ),
  )
  /** PUT /mas/realm/{realm}/exemption: replaces the exemption domains. */
  .put(
    '/:realm/exemption',
    guardedJson({ all: ['mas_realm_edit'] }, ExemptionBody, async (c, auth, { domains }) =>
      c.json({ domains: await replaceRealmList(c, auth, 'exemption', 'domains', domains, getExemptionDomains, setExemptionStatements) }),
    ),
  )
  /** GET /mas/realm/{realm}/rtc: the realm's STUN/TURN servers for conferences (issue 20), the TURN credential masked. */
  .get(
    '/:realm/rtc',
    guarded({ any: ['mas_realm_get', 'mas_realm_edit'] }, async (c, auth) => c.json(maskedRtc(await getRealmRtc(c.env.DB, await pathRealm(c, auth, 'realm'))))),
  )
  /**
   * PUT /mas/realm/{realm}/rtc: replaces the servers (servers are infrastructure: mas_realm_edit and
   * mas_realm_edit_infra). A credential sent back as its mask keeps the stored one; audited with the credential masked.
   */
  .put(
    '/:realm/rtc',
    guardedJson({ all: ['mas_realm_edit', 'mas_realm_edit_infra'] }, RtcServersBody, async (c, auth, body) => {
      const realm = await pathRealm(c, auth, 'realm')
      const before = await getRealmRtc(c.env.DB, realm)
      const kept = body.turn_credential.startsWith(SECRET_MASK) && before ? before.turn_credential : body.turn_credential
      const next = { ...body, turn_credential: body.turn_urls.length ? kept : '' }
      if (next.turn_urls.length && !next.turn_credential) throw apiError(400, 'required', 'validation.required', 'turn_credential', null)
      await runBatch(c.env.DB, [
        setRealmRtcStatement(c.env.DB, realm, next, auth.nick, new Date().toISOString()),
        auditStatement(c.env.DB, {
          realm,
          actor: auth.nick,
          actorRealm: auth.realm,
          action: 'update',
          entity: 'realm_rtc',
          entityId: realm,
          before: before ? maskedRtc(before) : null,
          after: maskedRtc({ ...next, updated_at: null }),
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(maskedRtc(await getRealmRtc(c.env.DB, realm)))
    }),
  )
  /**
   * /mas/realm/{code}/metaverse_room: the realm's metaverse rooms (seed 002 §7), inside the realms the caller
   * administers. mas_metaverse_room_edit also reads a room (its edit screen).
   */
  .route(
    '/:code/metaverse_room',
    crud(metaverseRoomEntity, {
      permissions: {
        list: 'mas_metaverse_room_list',
        get: ['mas_metaverse_room_list', 'mas_metaverse_room_edit'],
        create: 'mas_metaverse_room_create',
        edit: 'mas_metaverse_room_edit',
        delete: 'mas_metaverse_room_delete',
      },
      scope: async (c, auth) => ({ where: 'realm = ?', params: [await pathRealm(c, auth, 'code')] }),
      create: MetaverseRoomCreate,
      update: MetaverseRoomUpdate,
      beforeCreate: async (c, auth, body) => {
        const now = new Date().toISOString()
        return { ...body, id: randomToken(9), realm: await pathRealm(c, auth, 'code'), created_at: now, updated_at: now }
      },
      beforeUpdate: (_c, _auth, body) => ({ ...body, updated_at: new Date().toISOString() }),
    }),
  )
