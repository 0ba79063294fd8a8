import { Hono } from 'hono'
import { AssetCreate, AssetUpdate, assetEntity, videoId, type Asset } from '#shared/schemas/asset'
import { parseWebUrl } from '#shared/schemas/common'
import { TEMPORARY_UPLOAD_HOURS } from '#shared/schemas/file'
import { assetUsingFile, getFile, persistFileStatement, unpersistFileStatement, uploadedFile } from '../db/files'
import { getGlobalConfig } from '../db/global-config'
import { getRealmRow, realmConfig } from '../db/realms'
import type { Auth } from '../db/sessions'
import { randomToken } from '../lib/crypto'
import { crud } from '../lib/entity'
import { apiError } from '../lib/errors'
import { type AppEnv, type Ctx, origin } from './context'

type Source = Pick<Asset, 'provider' | 'file_id' | 'url' | 'type' | 'infra'>

/**
 * Resolves where an asset's media is: an upload takes type, size, content type and url from its stored file (not
 * used by another asset); a link must suit its provider and avoid the platform's blocked media hosts.
 */
async function resolveSource(c: Ctx, auth: Auth, src: Source, id: string): Promise<Record<string, unknown>> {
  if (src.provider === 'upload') {
    if (!src.file_id) throw apiError(400, 'required', 'validation.file.required', 'file_id', null)
    const file = await getFile(c.env.DB, auth.realm, src.file_id)
    if (!file) throw apiError(422, 'not_found', 'validation.file.required', 'file_id', src.file_id)
    const other = await assetUsingFile(c.env.DB, auth.realm, file.id, id)
    if (other) throw apiError(409, 'conflict', 'validation.asset.file_in_use', 'file_id', other)
    const realm = await getRealmRow(c.env.DB, auth.realm)
    const base = realm ? realmConfig(realm, origin(c), c.get('hostRealm') === null).files_base_url : '/files/'
    return {
      provider: 'upload',
      infra: 'cdn',
      file_id: file.id,
      url: uploadedFile(file, base).cdn_full_url,
      type: file.kind,
      size: file.size,
      content_type: file.content_type,
    }
  }
  if (!src.url) throw apiError(400, 'required', 'validation.required', 'url', null)
  // Parsed once, never thrown: a stored link from before the shared URL schema may not parse.
  const link = parseWebUrl(src.url, ['https'])
  if (!link) throw apiError(422, 'url', 'validation.https', 'url', src.url)
  const host = link.hostname.toLowerCase()
  const blocked = (await getGlobalConfig(c.env.DB)).blocked_media_hosts.find((fragment) => host.includes(fragment))
  if (blocked) throw apiError(422, 'blocked_host', 'validation.asset.blocked_host', 'url', host)
  if ((src.provider === 'youtube' || src.provider === 'vimeo') && !videoId(src.provider, src.url))
    throw apiError(422, 'url', 'validation.video_url', 'url', src.url)
  const infra = src.provider === 'link' ? (src.infra === 'hls' ? 'hls' : 'cdn') : 'embed'
  if (infra === 'hls' && !/\.m3u8(\?|$)/i.test(link.pathname + link.search)) throw apiError(422, 'url', 'validation.asset.hls', 'url', src.url)
  return { provider: src.provider, infra, file_id: null, url: src.url, type: src.type, size: null, content_type: '' }
}

/** A file no asset uses any more goes back to temporary: the hourly cleanup removes it after the usual delay. */
const release = (db: D1Database, realm: string, fileId: string) =>
  unpersistFileStatement(db, realm, fileId, new Date(Date.now() + TEMPORARY_UPLOAD_HOURS * 3_600_000).toISOString())

/** Files an update replaces, by request, for the write's batch. */
const replaced = new WeakMap<Ctx, string>()

/** Assets of the realm (asset, asset/create, asset/edit/{asset_id}). */
export const asset = new Hono<AppEnv>().route(
  '/',
  crud(assetEntity, {
    permissions: {
      list: 'asset_asset_list',
      get: ['asset_asset_get', 'asset_asset_edit'],
      create: 'asset_asset_create',
      edit: 'asset_asset_edit',
      delete: 'asset_asset_delete',
    },
    create: AssetCreate,
    update: AssetUpdate,
    beforeCreate: async (c, auth, body) => {
      const id = randomToken(9)
      const now = new Date().toISOString()
      const source = await resolveSource(
        c,
        auth,
        { provider: body.provider, file_id: body.file_id ?? null, url: body.url ?? '', type: body.type, infra: body.infra ?? 'cdn' },
        id,
      )
      return { id, realm: auth.realm, name: body.name, ...source, created_at: now, updated_at: now, updated_by: auth.nick }
    },
    beforeUpdate: async (c, auth, body, existing) => {
      const touched = body.provider !== undefined || body.file_id !== undefined || body.url !== undefined || body.type !== undefined || body.infra !== undefined
      const next = { ...existing, ...body }
      const source: Record<string, unknown> = touched
        ? await resolveSource(c, auth, { ...next, file_id: next.provider === 'upload' ? (next.file_id ?? null) : null }, existing.id)
        : {}
      if (existing.file_id && touched && source.file_id !== existing.file_id) replaced.set(c, existing.file_id)
      return { ...(body.name !== undefined ? { name: body.name } : {}), ...source, updated_at: new Date().toISOString(), updated_by: auth.nick }
    },
    statements: (c, auth, write) => {
      const db = c.env.DB
      const out: D1PreparedStatement[] = []
      const old = write.action === 'delete' ? (write.values.file_id as string | null) : replaced.get(c)
      if (old) out.push(release(db, auth.realm, old))
      if (write.action !== 'delete' && typeof write.values.file_id === 'string') out.push(persistFileStatement(db, auth.realm, write.values.file_id))
      return out
    },
  }),
)
