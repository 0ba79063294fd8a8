import { beforeAll, describe, expect, it } from 'vitest'
import { shareCap } from '../../party/channel-protocol'
import { realmApi } from './browser'
import { Client } from './live-client'

/**
 * The channel modes the conference applies (issue 20), with real WebSocket clients against `partykit dev`: the
 * `bandwidth share limit` and `bitrate reduction on loss` reach every client in the settings the party computes (the
 * mesh applies them, tests/components/bitrate-adapt.test.ts), and a lecture's `auto voice count` has the party invite
 * the first N audience members to join to speak — they transmit without a moderator, the next one is refused.
 */

const tag = Date.now().toString(36)
let n = 0
type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api
const PASSWORD = 'senha-dos-modos-1'
const ANA = `ana-mode-${tag}`
const BIA = `bia-mode-${tag}`
let ana: Api
let bia: Api

const sdp = (audio: string) =>
  [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    `a=${audio}`,
    'a=rtpmap:111 opus/48000/2',
  ].join('\r\n') + '\r\n'
const AUDIO = sdp('sendrecv')

async function makeChannel(modes: Record<string, unknown>): Promise<string> {
  const made = await root<{ id: string }>('POST', 'channel', {
    name: `Modos ${tag} ${++n}`,
    modes,
    members: [{ nick: 'root', permission: 'owner' }],
  })
  return made.id
}
const join = async (as: Api, id: string) => {
  const c = await Client.open(id, (await as<{ ticket: string }>('POST', `channel/live/${id}/ticket`)).ticket)
  await c.next('welcome')
  return c
}
const welcome = (c: Client) => c.events.find((e) => e.type === 'welcome')!

describe('conference modes', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
    for (const nick of [ANA, BIA]) await root('POST', 'mas/user', { nick, name: nick, password: PASSWORD, roles: [] })
    ana = await realmApi('demo', ANA, PASSWORD)
    bia = await realmApi('demo', BIA, PASSWORD)
  })

  it("the bandwidth share limit caps every sender at its share of the room's maximum bitrate; reduction on loss is announced", async () => {
    expect(shareCap(1000, 25)).toBe(250)
    expect(shareCap(1000, 0)).toBe(1000)
    expect(shareCap(1000, 100)).toBe(1000)
    expect(shareCap(0, 50)).toBe(0)
    expect(shareCap(3, 10)).toBe(1)
    const realmMax = (await root<{ max_bitrate_kbps: number }>('GET', 'mas/realm/demo')).max_bitrate_kbps
    expect(realmMax).toBeGreaterThan(100)
    const cases: [Record<string, unknown>, number, boolean][] = [
      [{ max_bitrate_kbps: 1000, bandwidth_share_limit: 25 }, 250, false],
      [{ bandwidth_share_limit: 50, bitrate_reduction: true }, Math.floor(realmMax / 2), true],
      [{ bitrate_reduction: true }, realmMax, true],
      [{}, realmMax, false],
    ]
    for (const [modes, kbps, reduce] of cases) {
      const c = await join(root, await makeChannel(modes))
      const { settings } = welcome(c) as Extract<Client['events'][number], { type: 'welcome' }>
      expect({ kbps: settings.max_bitrate_kbps, reduce: settings.reduce_on_loss }).toEqual({ kbps, reduce })
      c.close()
    }
  })

  it('auto voice count: the first audience member to join speaks without an invitation, the next does not', async () => {
    const id = await makeChannel({ auto_voice_count: 1 })
    const owner = await join(root, id)
    const a = await join(ana, id)
    const anaNick = `${ANA}@demo`
    const biaNick = `${BIA}@demo`
    const you = (c: Client) => (welcome(c) as Extract<Client['events'][number], { type: 'welcome' }>).you
    expect(you(a).speaker).toBe(true)
    await owner.next('joined', (e) => e.member.nick === anaNick && e.member.speaker === true)
    // Voiced: her offer that sends audio goes through (a lecture refuses the audience's otherwise).
    a.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await owner.next('offer')).from).toBe(anaNick)
    await owner.next('member', (e) => e.member.nick === anaNick && e.member.media?.audio === true)

    const b = await join(bia, id)
    expect(you(b).speaker).toBeUndefined()
    b.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await b.next('error', (e) => e.cause === 'not_speaker')).cause).toBe('not_speaker')

    // The place is hers for the session: coming back keeps it; a revoked place is not given to the next to join.
    a.close()
    await owner.next('left', (e) => e.nick === anaNick)
    const again = await join(ana, id)
    expect(you(again).speaker).toBe(true)
    owner.send({ type: 'speak', nick: anaNick, invite: false })
    await owner.next('member', (e) => e.member.nick === anaNick && e.member.speaker === undefined)
    b.close()
    await owner.next('left', (e) => e.nick === biaNick)
    const b2 = await join(bia, id)
    expect(you(b2).speaker).toBeUndefined()
    for (const c of [again, b2, owner]) c.close()
  })
})
