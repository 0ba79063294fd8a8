import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { accountId, realmWallet, userWallet } from '../../worker/db/ledger'
import { user } from './factories'
import { DEMO, api, expectEnvelope, userWith } from './helpers'
import { STALE_PENDING_MS, requestHash } from '../../worker/lib/idempotency'
import { DASH, balance, expectInvariants, funded, grant, key, ledgerRealm, move, recipient } from './ledger-helpers'

describe('POST ledger/transaction/transfer', () => {
  it('moves points to each recipient in one balanced transaction, with its audit record, and answers billing_key', async () => {
    const payer = await funded(100)
    const [a, b] = [await recipient(), await recipient()]
    const res = await move('transfer', payer.token, { targets: [a.nick, b.nick], points: 15, description: 'Bônus' })
    expect(res.status).toBe(201)
    const body = (await res.json()) as { id: string; billing_key: string; total: number; targets: string[]; source: string }
    expect(body).toMatchObject({ type: 'transfer', points: 15, total: 30, targets: [a.nick, b.nick], source: `user:${payer.nick}`, description: 'Bônus' })
    expect(body.billing_key).toMatch(/^BK\d{8}-[0-9A-Z]{10}$/)
    expect([await balance(payer.nick), await balance(a.nick), await balance(b.nick)]).toEqual([70, 15, 15])
    const entries = await env.DB.prepare('SELECT amount FROM ledger_entry WHERE transaction_id = ? ORDER BY id').bind(body.id).all<{ amount: number }>()
    expect(entries.results.map((e) => e.amount)).toEqual([-30, 15, 15])
    const audit = await env.DB.prepare("SELECT actor, action FROM audit_log WHERE entity = 'ledger_transaction' AND entity_id = ?").bind(body.id).first()
    expect(audit).toEqual({ actor: payer.nick, action: 'transfer' })
    await expectInvariants()
  })

  it('refuses insufficient points with insufficient_credits and changes nothing', async () => {
    const payer = await funded(20)
    const [a, b] = [await recipient(), await recipient()]
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction').first<{ n: number }>()
    const body = await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick, b.nick], points: 11 }), 422, 'insufficient_credits')
    expect(body.errors[0]).toMatchObject({ field: 'points', value: { required: 22, available: 20 }, message: 'ledger.error.insufficient_credits' })
    expect([await balance(payer.nick), await balance(a.nick), await balance(b.nick)]).toEqual([20, 0, 0])
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction').first<{ n: number }>()).toEqual(before)
  })

  it('refuses a payer whose wallet has never moved (insufficient_credits, available 0) and creates no account', async () => {
    const payer = await funded(0)
    const a = await recipient()
    const body = await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick], points: 1 }), 422, 'insufficient_credits')
    expect(body.errors[0]).toMatchObject({ field: 'points', value: { required: 1, available: 0 } })
    const accounts = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_account WHERE id IN (?, ?)')
      .bind(accountId(userWallet('demo', payer.nick)), accountId(userWallet('demo', a.nick)))
      .first<{ n: number }>()
    expect(accounts?.n).toBe(0)
    await expectInvariants()
  })

  it('refuses unknown recipients, naming each (cause not_found), and moves nothing', async () => {
    const payer = await funded(50)
    const a = await recipient()
    const body = await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick, 'ghost', 'nobody@demo'], points: 5 }), 404, 'not_found')
    expect(body.errors.map((e) => [e.field, e.value])).toEqual([
      ['targets.1', 'ghost'],
      ['targets.2', 'nobody@demo'],
    ])
    expect(await balance(payer.nick)).toBe(50)
  })

  it('appends the realm nick suffix to recipients typed without it', async () => {
    const payer = await funded(10)
    const res = await move('transfer', payer.token, { targets: ['teacher'], points: 3 })
    expect(res.status).toBe(201)
    expect(((await res.json()) as { targets: string[] }).targets).toEqual(['teacher@demo'])
  })

  it('validates the body: targets, points, duplicates, self', async () => {
    const payer = await funded(10)
    await expectEnvelope(await move('transfer', payer.token, { targets: [], points: 1 }), 400, 'min_length')
    await expectEnvelope(await move('transfer', payer.token, { targets: ['teacher'], points: 0 }), 400, 'min_value')
    await expectEnvelope(await move('transfer', payer.token, { targets: ['teacher'], points: 1.5 }), 400, 'integer')
    await expectEnvelope(await move('transfer', payer.token, { targets: ['teacher', 'TEACHER'], points: 1 }), 400, 'check')
    await expectEnvelope(await move('transfer', payer.token, { targets: ['teacher', 'teacher@demo'], points: 1 }), 400, 'duplicate_targets')
    await expectEnvelope(await move('transfer', payer.token, { targets: [payer.nick], points: 1 }), 422, 'self_transfer')
    await expectEnvelope(
      await api(DEMO, 'ledger/transaction/transfer', { method: 'POST', token: payer.token, json: { targets: ['teacher'], points: 1 } }),
      400,
      'required',
    )
    expect(await balance(payer.nick)).toBe(10)
  })

  it('pays from a realm wallet only with ledger_transfer_cross_realm, to users of that realm', async () => {
    const plain = await funded(0)
    const a = await recipient()
    await expectEnvelope(await move('transfer', plain.token, { targets: [a.nick], points: 1, from_realm: 'demo' }), 403, 'forbidden')
    const admin = await funded(0, ['ledger_transfer_create', 'ledger_transfer_cross_realm'])
    await grant(realmWallet('demo'), 50)
    const realmBalance = async () =>
      (await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?')
        .bind(accountId(realmWallet('demo')))
        .first<{ balance: number }>())!.balance
    const realmBefore = await realmBalance()
    const res = await move('transfer', admin.token, { targets: [a.nick], points: 7, from_realm: 'demo' })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ source: 'realm:demo', from_realm: 'demo' })
    expect(await balance(a.nick)).toBe(7)
    expect(await realmBalance()).toBe(realmBefore - 7)
    const inEscola = await user('escola')
    await expectEnvelope(await move('transfer', admin.token, { targets: [inEscola.nick], points: 1, from_realm: 'escola' }), 403, 'forbidden')
  })

  it('is refused where the realm has no ledger, and without the permission', async () => {
    const escola = await userWith('escola', [DASH, 'ledger_transfer_create'])
    await expectEnvelope(
      await api('escola.localhost', 'ledger/transaction/transfer', {
        method: 'POST',
        token: escola.token,
        json: { targets: ['root'], points: 1, idempotency_key: key() },
      }),
      403,
      'disabled',
    )
    const reader = await userWith('demo', [DASH, 'ledger_transfer_list'])
    await expectEnvelope(await move('transfer', reader.token, { targets: ['teacher'], points: 1 }), 403, 'forbidden')
  })
})

describe('idempotency of movements', () => {
  it('answers a replay with the original answer and posts once', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const k = key()
    const first = await move('transfer', payer.token, { targets: [a.nick], points: 10, idempotency_key: k })
    const second = await move('transfer', payer.token, { targets: [a.nick], points: 10, idempotency_key: k })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await second.json()).toEqual(await first.json())
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([90, 10])
  })

  it('accepts the key as an Idempotency-Key header', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const k = key()
    const send = () =>
      api(DEMO, 'ledger/transaction/transfer', {
        method: 'POST',
        token: payer.token,
        json: { targets: [a.nick], points: 4 },
        headers: { 'Idempotency-Key': k },
      })
    expect((await send()).status).toBe(201)
    expect((await send()).headers.get('idempotent-replayed')).toBe('true')
    expect(await balance(a.nick)).toBe(4)
    await expectEnvelope(
      await move('transfer', payer.token, { targets: [a.nick], points: 4, idempotency_key: 'other-key-1' }, { 'Idempotency-Key': k }),
      400,
      'invalid',
    )
  })

  it('refuses the same key with a different body (422) without a second effect', async () => {
    const payer = await funded(100, ['ledger_transfer_create', 'ledger_transaction_debit'])
    const a = await recipient()
    const k = key()
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 10, idempotency_key: k })).status).toBe(201)
    await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick], points: 11, idempotency_key: k }), 422, 'idempotency_mismatch')
    await expectEnvelope(await move('debit', payer.token, { contents: ['lesson.summary'], idempotency_key: k }), 422, 'idempotency_mismatch')
    expect(await balance(a.nick)).toBe(10)
  })

  it('refuses a replay while the first call is still running (409)', async () => {
    const payer = await funded(100)
    const k = key()
    const body = { targets: ['teacher'], points: 1, description: '', idempotency_key: k }
    // The first call's claim as it stands before its batch commits: pending, bound to this very request.
    await env.DB.prepare("INSERT INTO ledger_idempotency (realm, key, request_hash, status, created_at) VALUES ('demo', ?, ?, 'pending', ?)")
      .bind(k, await requestHash('transfer', payer.nick, body), new Date().toISOString())
      .run()
    await expectEnvelope(await move('transfer', payer.token, body), 409, 'idempotency_in_progress')
    expect(await balance(payer.nick)).toBe(100)
  })

  it('posts once when the same key arrives many times at once: every call answers the one stored movement', async () => {
    const payer = await funded(100)
    const a = await recipient()
    const body = { targets: [a.nick], points: 7, description: '', idempotency_key: key() }
    const answers = await Promise.all(Array.from({ length: 6 }, () => move('transfer', payer.token, body)))
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201])
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { id: string }).id)))
    expect(ids.size).toBe(1)
    expect(await balance(payer.nick)).toBe(93)
    expect(await balance(a.nick)).toBe(7)
    await expectInvariants()
  })

  it('takes over a pending key whose first call died before committing', async () => {
    const payer = await funded(100)
    const k = key()
    const body = { targets: ['teacher'], points: 2, description: '', idempotency_key: k }
    const old = new Date(Date.now() - STALE_PENDING_MS - 1000).toISOString()
    await env.DB.prepare("INSERT INTO ledger_idempotency (realm, key, request_hash, status, created_at) VALUES ('demo', ?, ?, 'pending', ?)")
      .bind(k, await requestHash('transfer', payer.nick, body), old)
      .run()
    expect((await move('transfer', payer.token, body)).status).toBe(201)
    expect(await balance(payer.nick)).toBe(98)
  })

  it('frees the key of a refused call, so the same request can succeed later', async () => {
    const payer = await funded(5)
    const a = await recipient()
    const k = key()
    await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick], points: 8, idempotency_key: k }), 422, 'insufficient_credits')
    await grant(userWallet('demo', payer.nick), 5)
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 8, idempotency_key: k })).status).toBe(201)
    expect(await balance(a.nick)).toBe(8)
  })

  it('keeps keys per realm: the same key in another realm is another call', async () => {
    const k = key()
    const payer = await funded(10)
    const other = await ledgerRealm()
    const stranger = await userWith(other.code, [DASH, 'ledger_transfer_create'])
    await grant(userWallet(other.code, stranger.nick), 10)
    expect((await move('transfer', payer.token, { targets: ['teacher'], points: 1, idempotency_key: k })).status).toBe(201)
    const res = await api(other.host, 'ledger/transaction/transfer', {
      method: 'POST',
      token: stranger.token,
      json: { targets: [other.member], points: 1, idempotency_key: k },
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    const rows = await env.DB.prepare('SELECT realm FROM ledger_idempotency WHERE key = ? ORDER BY realm').bind(k).all()
    expect(rows.results).toEqual([{ realm: 'demo' }, { realm: other.code }])
  })
})

describe('transfers to recipients paid before (their reads are checked inside the movement batch)', () => {
  it('refuses a recipient disabled since the last transfer to them (not_found) and moves nothing', async () => {
    const payer = await funded(50)
    const a = await recipient()
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 5 })).status).toBe(201)
    await env.DB.prepare("UPDATE user SET disabled = 1 WHERE realm = 'demo' AND nick = ?").bind(a.nick).run()
    const txBefore = await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction').first<{ n: number }>()
    const k = key()
    const body = await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick], points: 5, idempotency_key: k }), 404, 'not_found')
    expect(body.errors).toEqual([{ field: 'targets.0', cause: 'not_found', value: a.nick, message: 'ledger.error.recipient_not_found' }])
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([45, 5])
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM ledger_transaction').first<{ n: number }>()).toEqual(txBefore)
    // The refused call left no answer under its key.
    expect(await env.DB.prepare("SELECT key FROM ledger_idempotency WHERE realm = 'demo' AND key = ?").bind(k).first()).toBeNull()
    await expectInvariants()
  })

  it('filters the description with the word filter as it is now, not as it was at the last transfer', async () => {
    const payer = await funded(50)
    const a = await recipient()
    const word = `zq${crypto.randomUUID().slice(0, 8)}`
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 1, description: `aula ${word}` })).status).toBe(201)
    await env.DB.prepare("INSERT INTO realm_word_filter (realm, sentence) VALUES ('demo', ?)").bind(word).run()
    try {
      const res = await move('transfer', payer.token, { targets: [a.nick], points: 1, description: `aula ${word}` })
      expect(res.status).toBe(201)
      const body = (await res.json()) as { id: string; description: string }
      expect(body.description).toBe(`aula ${'*'.repeat(word.length)}`)
      const stored = await env.DB.prepare('SELECT description FROM ledger_transaction WHERE id = ?').bind(body.id).first<{ description: string }>()
      expect(stored?.description).toBe(body.description)
    } finally {
      await env.DB.prepare("DELETE FROM realm_word_filter WHERE realm = 'demo' AND sentence = ?").bind(word).run()
    }
  })

  it('refuses a transfer the wallet can no longer pay (insufficient_credits) and changes nothing', async () => {
    const payer = await funded(10)
    const a = await recipient()
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 7 })).status).toBe(201)
    const k = key()
    const body = await expectEnvelope(await move('transfer', payer.token, { targets: [a.nick], points: 7, idempotency_key: k }), 422, 'insufficient_credits')
    expect(body.errors[0]).toMatchObject({ field: 'points', value: { required: 7, available: 3 }, message: 'ledger.error.insufficient_credits' })
    expect([await balance(payer.nick), await balance(a.nick)]).toEqual([3, 7])
    expect(await env.DB.prepare("SELECT key FROM ledger_idempotency WHERE realm = 'demo' AND key = ?").bind(k).first()).toBeNull()
    await expectInvariants()
  })

  it('never overdraws under concurrent transfers from one wallet: exactly what it holds is paid, the rest refused', async () => {
    const payer = await funded(6)
    const [a, b] = [await recipient(), await recipient()]
    expect((await move('transfer', payer.token, { targets: [a.nick], points: 1 })).status).toBe(201)
    // 5 credits left; 12 transfers of 1 at once, to a recipient paid before (one batch each) and to a new one.
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => move('transfer', payer.token, { targets: [i % 2 ? a.nick : b.nick], points: 1 })))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(5)
    expect(statuses.filter((s) => s === 422)).toHaveLength(7)
    for (const r of results.filter((x) => x.status === 422))
      expect((await r.json()) as unknown).toMatchObject({ errors: [{ cause: 'insufficient_credits', field: 'points' }] })
    expect(await balance(payer.nick)).toBe(0)
    expect((await balance(a.nick)) + (await balance(b.nick))).toBe(6)
    await expectInvariants()
  })
})
