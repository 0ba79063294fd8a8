import { Hono } from 'hono'
import { RealmCode } from '#shared/schemas/common'
import { MetaverseRoomCreate, MetaverseRoomUpdate, metaverseRoomEntity } from '#shared/schemas/metaverse'
import { ExemptionBody, WordFilterBody } from '#shared/schemas/realm-settings'
import type { Auth } from '../db/sessions'
import { getExemptionDomains, getWordFilter, setExemptionStatements, setWordFilterStatements } from '../db/word-filter'
import { auditStatement } from '../lib/audit'
import { randomToken } from '../lib/crypto'
import { crud } from '../lib/entity'
import { apiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam, readJson } from './context'
import { inTree } from './realm'

/** Per-realm settings with their own calls, under /mas/realm/{realm}: word filter, exemption domains, metaverse rooms. */
export const realmSettings = new Hono<AppEnv>()

/** The realm named in the path when the caller administers it; 404 otherwise (existence is not revealed). */
async function pathRealm(c: Ctx, auth: Auth, param: string): Promise<string> {
  const code = parse(RealmCode, pathParam(c, param))
  if (code !== auth.realm && !(await inTree(c, auth, code))) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  const exists = await c.env.DB.prepare('SELECT 1 FROM realm WHERE code = ? AND deleted_at IS NULL').bind(code).first()
  if (!exists) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  return code
}

/** GET /mas/realm/{realm}/word_filter: `{ sentences }`. */
realmSettings.get(
  '/:realm/word_filter',
  guarded({ all: ['mas_word_filter_get'] }, async (c, auth) => c.json({ sentences: await getWordFilter(c.env.DB, await pathRealm(c, auth, 'realm')) })),
)

/** PUT /mas/realm/{realm}/word_filter: replaces the sentences (trimmed, lowercase, without repeats). */
realmSettings.put(
  '/:realm/word_filter',
  guarded({ all: ['mas_word_filter_edit'] }, async (c, auth) => {
    const realm = await pathRealm(c, auth, 'realm')
    const { sentences } = await readJson(c, WordFilterBody)
    const before = await getWordFilter(c.env.DB, realm)
    await c.env.DB.batch([
      ...setWordFilterStatements(c.env.DB, realm, sentences),
      auditStatement(c.env.DB, {
        realm,
        actor: auth.nick,
        actorRealm: auth.realm,
        action: 'update',
        entity: 'word_filter',
        entityId: realm,
        before: { sentences: before },
        after: { sentences: [...sentences].sort() },
        requestId: c.get('requestId'),
      }),
    ])
    return c.json({ sentences: await getWordFilter(c.env.DB, realm) })
  }),
)

/** GET /mas/realm/{realm}/exemption: `{ domains }` (the exemption list of seed 002 §3). */
realmSettings.get(
  '/:realm/exemption',
  guarded({ any: ['mas_realm_get', 'mas_realm_edit'] }, async (c, auth) =>
    c.json({ domains: await getExemptionDomains(c.env.DB, await pathRealm(c, auth, 'realm')) }),
  ),
)

/** PUT /mas/realm/{realm}/exemption: replaces the exemption domains. */
realmSettings.put(
  '/:realm/exemption',
  guarded({ all: ['mas_realm_edit'] }, async (c, auth) => {
    const realm = await pathRealm(c, auth, 'realm')
    const { domains } = await readJson(c, ExemptionBody)
    const before = await getExemptionDomains(c.env.DB, realm)
    await c.env.DB.batch([
      ...setExemptionStatements(c.env.DB, realm, domains),
      auditStatement(c.env.DB, {
        realm,
        actor: auth.nick,
        actorRealm: auth.realm,
        action: 'update',
        entity: 'exemption',
        entityId: realm,
        before: { domains: before },
        after: { domains: [...domains].sort() },
        requestId: c.get('requestId'),
      }),
    ])
    return c.json({ domains: await getExemptionDomains(c.env.DB, realm) })
  }),
)

/**
 * /mas/realm/{code}/metaverse_room: the realm's metaverse rooms (seed 002 §7), inside the realms the caller
 * administers. mas_metaverse_room_edit also reads a room (its edit screen).
 */
realmSettings.route(
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
