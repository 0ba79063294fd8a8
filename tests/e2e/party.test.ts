import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { partyPort, url } from './browser'

async function sessionCookie(): Promise<string> {
  const form = new FormData()
  form.set('nick', 'root')
  form.set('password', 'demo1234')
  const res = await fetch(url('localhost', '/login'), {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { origin: url('localhost', '').replace(/\/$/, ''), cookie: `dash_realm=${encodeURIComponent(btoa(JSON.stringify('demo')))}` },
  })
  expect(res.status).toBe(302)
  return `${/dash_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0]}; dash_realm=${encodeURIComponent(btoa(JSON.stringify('demo')))}`
}

function connect(room: string, ticket: string): Promise<{ ws: WebSocket; first: Promise<unknown> } | { refused: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort()}/parties/presence/${room}?ticket=${encodeURIComponent(ticket)}`)
    const first = new Promise((r) => ws.once('message', (data) => r(JSON.parse(String(data)))))
    ws.once('open', () => resolve({ ws, first }))
    ws.once('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }))
    ws.once('error', () => resolve({ refused: -1 }))
  })
}

describe('presence party', () => {
  it('refuses a connection without a valid ticket', async () => {
    const result = await connect('demo', 'forged.ticket')
    expect(result).toEqual({ refused: 401 })
  })

  it('accepts a ticket minted by the console for its realm room only, and validates messages', async () => {
    const cookie = await sessionCookie()
    const res = await fetch(url('localhost', '/party/ticket?party=presence'), { headers: { cookie } })
    const { ticket, room } = (await res.json()) as { ticket: string; room: string }
    expect(room).toBe('demo')

    expect(await connect('escola', ticket)).toEqual({ refused: 401 })

    const joined = await connect('demo', ticket)
    if (!('ws' in joined)) throw new Error(`refused: ${JSON.stringify(joined)}`)
    expect(await joined.first).toMatchObject({ type: 'presence', members: [{ nick: 'root@demo', name: 'Root Demo', path: '/' }] })

    const reply = new Promise((r) => joined.ws.once('message', (data) => r(JSON.parse(String(data)))))
    joined.ws.send(JSON.stringify({ type: 'here', path: 'not-a-path' }))
    expect(await reply).toMatchObject({ type: 'error', cause: 'invalid_message' })

    const update = new Promise((r) => joined.ws.once('message', (data) => r(JSON.parse(String(data)))))
    joined.ws.send(JSON.stringify({ type: 'here', path: '/realm' }))
    expect(await update).toMatchObject({ type: 'presence', members: [{ nick: 'root@demo', path: '/realm' }] })
    joined.ws.close()
  })
})
