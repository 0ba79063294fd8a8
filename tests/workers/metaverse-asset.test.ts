import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Asset } from '#shared/schemas/asset'
import type { ListPage } from '#shared/schemas/common'
import type { MetaverseRoom, MetaverseToken } from '#shared/schemas/metaverse'
import type { RealmDetail } from '#shared/schemas/realm-settings'
import type { UploadedFile } from '#shared/schemas/file'
import { verifyMetaverseToken } from '../../worker/lib/metaverse-token'
import { pngBytes } from '../support/images'
import { DEMO, api, call, expectEnvelope, signIn, userWith } from './helpers'

const DASH = 'dashboard_dashboard_access'
const ROOMS = [DASH, 'mas_metaverse_room_list', 'mas_metaverse_room_create', 'mas_metaverse_room_edit', 'mas_metaverse_room_delete']
const ASSETS = [DASH, 'asset_asset_list', 'asset_asset_get', 'asset_asset_create', 'asset_asset_edit', 'asset_asset_delete', 'mas_file_upload']

describe('metaverse rooms inside a realm', () => {
  it('creates, lists, edits and deletes rooms of realms the caller administers; the realm answer carries them', async () => {
    const { token } = await userWith('demo', ROOMS)
    const res = await api(DEMO, 'mas/realm/demo-sul/metaverse_room', {
      method: 'POST',
      token,
      json: { name: 'Auditório Sul', host: 'Meta.Sul.Example', capacity: 80 },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const room = (await res.json()) as MetaverseRoom
    expect(room).toMatchObject({ realm: 'demo-sul', host: 'meta.sul.example', enabled: true, capacity: 80 })
    const list = (await (await api(DEMO, 'mas/realm/demo-sul/metaverse_room', { token })).json()) as ListPage<MetaverseRoom>
    expect(list.items.map((r) => r.name)).toContain('Auditório Sul')
    const put = await api(DEMO, `mas/realm/demo-sul/metaverse_room/${room.id}`, {
      method: 'PUT',
      token,
      json: { enabled: false, scene_url: 'scenes.example/aud' },
    })
    expect(await put.json()).toMatchObject({ enabled: false, scene_url: 'https://scenes.example/aud' })
    const root = await signIn(DEMO, 'demo', 'root')
    const realm = (await (await api(DEMO, 'mas/realm/demo-sul', { token: root })).json()) as RealmDetail
    expect(realm.metaverse_rooms).toEqual([{ id: room.id, name: 'Auditório Sul', enabled: false }])
    // Another realm's room cannot be reached through this realm's path.
    await expectEnvelope(await api(DEMO, `mas/realm/demo/metaverse_room/${room.id}`, { token }), 404)
    await expectEnvelope(await api(DEMO, 'mas/realm/escola/metaverse_room', { method: 'POST', token, json: { name: 'Intrusa' } }), 404)
    await expectEnvelope(await api(DEMO, 'mas/realm/demo-sul/metaverse_room', { method: 'POST', token, json: { name: 'x', capacity: 0 } }), 400)
    expect((await api(DEMO, `mas/realm/demo-sul/metaverse_room/${room.id}`, { method: 'DELETE', token })).status).toBe(204)
  })
})

describe('PUT /room/metaverse/token/generate', () => {
  it('needs a host and an e-mail and answers a signed token that expires', async () => {
    const { token, nick } = await userWith('demo', [DASH, 'room_metaverse_token_generate'])
    await expectEnvelope(await api(DEMO, 'room/metaverse/token/generate', { method: 'PUT', token, json: { host: 'meta.demo.edu' } }), 400, 'required')
    await expectEnvelope(await api(DEMO, 'room/metaverse/token/generate', { method: 'PUT', token, json: { email: 'ana@demo.edu' } }), 400, 'required')
    await expectEnvelope(
      await api(DEMO, 'room/metaverse/token/generate', { method: 'PUT', token, json: { host: 'meta.demo.edu', email: 'ana@demo.edu' } }),
      409,
      'not_configured',
    )
    await env.DB.prepare("UPDATE realm SET metaverse_api_token = 'shared-metaverse-secret', metaverse_max_session_minutes = 30 WHERE code = 'demo'").run()
    const res = await api(DEMO, 'room/metaverse/token/generate', { method: 'PUT', token, json: { host: 'meta.demo.edu', email: 'Ana@Demo.edu' } })
    const body = (await res.json()) as MetaverseToken
    expect(body.token.split('.')).toHaveLength(2)
    const claims = await verifyMetaverseToken('shared-metaverse-secret', body.token)
    expect(claims).toMatchObject({ realm: 'demo', sub: nick, email: 'ana@demo.edu', host: 'meta.demo.edu' })
    expect(claims!.exp - claims!.iat).toBe(30 * 60)
    expect(Date.parse(body.expires_at)).toBe(claims!.exp * 1000)
    expect(await verifyMetaverseToken('another-secret', body.token)).toBeNull()
    expect(await verifyMetaverseToken('shared-metaverse-secret', body.token, claims!.exp + 1)).toBeNull()
    const [head, sig] = body.token.split('.')
    expect(await verifyMetaverseToken('shared-metaverse-secret', `${head}x.${sig}`)).toBeNull()
    await env.DB.prepare("UPDATE realm SET metaverse_api_token = '' WHERE code = 'demo'").run()
  })
})

const png = pngBytes

async function upload(token: string, name: string, bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData()
  form.set('data', new File([bytes], name))
  return (await (await api(DEMO, 'mas/file', { method: 'POST', token, body: form })).json()) as UploadedFile
}

describe('assets', () => {
  it('saves an uploaded file as an asset: the file is kept, its link copied from the file', async () => {
    const { token } = await userWith('demo', ASSETS)
    const file = await upload(token, 'cartaz.png', png(300, 200))
    expect(file.expires_at).not.toBeNull()
    const res = await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Cartaz da feira', file_id: file.id } })
    expect(res.status, await res.clone().text()).toBe(201)
    const asset = (await res.json()) as Asset
    expect(asset).toMatchObject({ provider: 'upload', infra: 'cdn', type: 'image', url: file.cdn_full_url, size: file.size, content_type: 'image/png' })
    expect(await env.DB.prepare('SELECT persist, expires_at FROM file WHERE id = ?').bind(file.id).first()).toEqual({ persist: 1, expires_at: null })
    expect((await call(DEMO, new URL(asset.url).pathname)).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Mesmo arquivo', file_id: file.id } }), 409, 'conflict')

    const replacement = await upload(token, 'novo.png', png(10, 10))
    const put = await api(DEMO, `asset/${asset.id}`, { method: 'PUT', token, json: { file_id: replacement.id } })
    expect(((await put.json()) as Asset).url).toBe(replacement.cdn_full_url)
    const old = await env.DB.prepare('SELECT persist, expires_at FROM file WHERE id = ?').bind(file.id).first<{ persist: number; expires_at: string | null }>()
    expect(old?.persist).toBe(0)
    expect(old?.expires_at).not.toBeNull()
    expect((await api(DEMO, `asset/${asset.id}`, { method: 'DELETE', token })).status).toBe(204)
    expect(await env.DB.prepare('SELECT persist FROM file WHERE id = ?').bind(replacement.id).first()).toEqual({ persist: 0 })
  })

  it('takes links that suit their provider, defaults to video, and refuses blocked media hosts', async () => {
    const { token } = await userWith('demo', ASSETS)
    const yt = await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Aula gravada', provider: 'youtube', url: 'https://youtu.be/aqz-KE-bpKQ' } })
    expect(await yt.json()).toMatchObject({ type: 'video', infra: 'embed', file_id: null })
    await expectEnvelope(
      await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Aula', provider: 'youtube', url: 'https://youtu.be/short' } }),
      422,
      'url',
    )
    await expectEnvelope(
      await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Inseguro', provider: 'link', url: 'http://example.org/a.mp4' } }),
      422,
      'url',
    )
    await expectEnvelope(await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Sem arquivo' } }), 400, 'required')
    const hls = await api(DEMO, 'asset', {
      method: 'POST',
      token,
      json: { name: 'Ao vivo', provider: 'link', infra: 'hls', url: 'stream.example.org/live/index.m3u8' },
    })
    expect(await hls.json()).toMatchObject({ infra: 'hls', url: 'https://stream.example.org/live/index.m3u8' })
    // The global configuration is the platform operator's.
    const root = await signIn(DEMO, 'demo', 'platform')
    await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { blocked_media_hosts: ['badcdn'] } })
    await expectEnvelope(
      await api(DEMO, 'asset', { method: 'POST', token, json: { name: 'Bloqueado', provider: 'link', url: 'https://media.badcdn.net/x.mp4' } }),
      422,
      'blocked_host',
    )
    await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { blocked_media_hosts: [] } })
  })

  it('keeps assets inside their realm', async () => {
    const demo = await userWith('demo', ASSETS)
    const escola = await userWith('escola', ASSETS)
    const file = await upload(demo.token, 'a.png', png(2, 2))
    const escolaAsset = await api('escola.localhost', 'asset', { method: 'POST', token: escola.token, json: { name: 'Roubado', file_id: file.id } })
    await expectEnvelope(escolaAsset, 422, 'not_found')
    const mine = (await (await api(DEMO, 'asset', { method: 'POST', token: demo.token, json: { name: 'Só do demo', file_id: file.id } })).json()) as Asset
    const list = (await (await api(DEMO, 'asset?limit=100', { token: demo.token })).json()) as ListPage<Asset>
    expect(list.items.map((a) => a.name)).toEqual(expect.arrayContaining(['Boas-vindas ao ano letivo', 'Só do demo']))
    const theirs = (await (await api('escola.localhost', 'asset?limit=100', { token: escola.token })).json()) as ListPage<Asset>
    expect(theirs.items.map((a) => a.id)).not.toContain(mine.id)
    await expectEnvelope(await api('escola.localhost', `asset/${mine.id}`, { token: escola.token }), 404)
  })
})
