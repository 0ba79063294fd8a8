import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { realmWith } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'

/** The realm's STUN/TURN servers for conferences (issue 20): the side table, its secret, and the live tickets. */

const EDIT = ['mas_realm_get', 'mas_realm_edit', 'mas_realm_edit_infra']

describe('realm STUN/TURN servers', () => {
  it('none by default; saved servers go out with the live tickets; the credential is write-only and kept when its mask comes back', async () => {
    const r = await realmWith()
    const admin = await userWith(r.code, EDIT)
    const get = async () => (await api(r.host, `mas/realm/${r.code}/rtc`, { token: admin.token })).json() as Promise<Record<string, unknown>>
    expect(await get()).toEqual({ stun_urls: [], turn_urls: [], turn_username: '', turn_credential: '', updated_at: null })
    // The ticket of a realm without servers carries none (host candidates: one machine or network).
    const room = await api(r.host, 'room/room', {
      method: 'POST',
      token: (await userWith(r.code, ['room_room_create', 'room_room_edit'])).token,
      json: { name: 'Sala' },
    })
    expect(room.status, await room.clone().text()).toBe(201)
    const roomId = ((await room.json()) as { id: string }).id
    const staff = await userWith(r.code, ['room_room_edit'])
    const ticket = async () =>
      (await (await api(r.host, `room/live/${roomId}/ticket`, { method: 'POST', token: staff.token })).json()) as { ice_servers: unknown }
    expect((await ticket()).ice_servers).toEqual([])

    const secret = 'turn-secret-0123456789'
    const body = {
      stun_urls: ['stun:stun.example.com:3478'],
      turn_urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'],
      turn_username: 'conf',
      turn_credential: secret,
    }
    const saved = await api(r.host, `mas/realm/${r.code}/rtc`, { method: 'PUT', token: admin.token, json: body })
    expect(saved.status, await saved.clone().text()).toBe(200)
    const answer = (await saved.json()) as { turn_credential: string }
    expect(answer.turn_credential).not.toContain('0123')
    expect(answer.turn_credential.endsWith('6789')).toBe(true)
    expect((await get()).turn_credential).toBe(answer.turn_credential)
    expect((await ticket()).ice_servers).toEqual([{ urls: body.stun_urls }, { urls: body.turn_urls, username: 'conf', credential: secret }])
    // The mask sent back keeps the stored credential; the audit record never holds it.
    expect(
      (
        await api(r.host, `mas/realm/${r.code}/rtc`, {
          method: 'PUT',
          token: admin.token,
          json: { ...body, turn_username: 'conf2', turn_credential: answer.turn_credential },
        })
      ).status,
    ).toBe(200)
    expect((await ticket()).ice_servers).toEqual([{ urls: body.stun_urls }, { urls: body.turn_urls, username: 'conf2', credential: secret }])
    const audit = await env.DB.prepare("SELECT changes FROM audit_log WHERE realm = ? AND entity = 'realm_rtc'").bind(r.code).all<{ changes: string }>()
    expect(audit.results.length).toBe(2)
    expect(JSON.stringify(audit.results)).not.toContain(secret)
  })

  it('refuses bad addresses, TURN without its username or credential, and callers without the infrastructure permission; nothing changes', async () => {
    const r = await realmWith()
    const admin = await userWith(r.code, EDIT)
    const put = (json: unknown, token = admin.token) => api(r.host, `mas/realm/${r.code}/rtc`, { method: 'PUT', token, json })
    for (const bad of [
      { stun_urls: ['http://stun.example.com'] },
      { stun_urls: ['turn:turn.example.com'] },
      { turn_urls: ['turn:turn.example.com'], turn_username: 'u' },
      { turn_urls: ['turn:turn.example.com'], turn_credential: 'c' },
      { turn_urls: ['turn:turn.example.com?transport=sctp'], turn_username: 'u', turn_credential: 'c' },
      { stun_urls: ['stun:a.example.com', 'stun:a.example.com'] },
      { stun_urls: Array.from({ length: 11 }, (_, i) => `stun:s${i}.example.com`) },
    ])
      await expectEnvelope(await put(bad), 400)
    const noInfra = await userWith(r.code, ['mas_realm_get', 'mas_realm_edit'])
    await expectEnvelope(await put({ stun_urls: ['stun:stun.example.com'] }, noInfra.token), 403)
    // Another realm's servers are not there to read or write.
    const other = await userWith('demo', EDIT)
    expect((await api(DEMO, `mas/realm/${r.code}/rtc`, { token: other.token })).status).toBe(404)
    const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM realm_rtc WHERE realm = ?').bind(r.code).first<number>('n')
    expect(row).toBe(0)
  })
})
