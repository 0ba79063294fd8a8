import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ComplaintReport } from '#shared/schemas/report'
import { checkWordFilter, filterText } from '../../worker/db/word-filter'
import { DEMO, api, expectEnvelope, signIn, userWith } from './helpers'
import { funded, ledgerRealm, move, recipient } from './ledger-helpers'

const DASH = 'dashboard_dashboard_access'

describe('filterText', () => {
  it('masks whole words ignoring case and accents, keeping spaces and the rest of the text', () => {
    expect(filterText('Que PALAVRÃO feio, palavrão!', ['palavrao'])).toEqual({ text: 'Que ******** feio, ********!', matches: ['PALAVRÃO', 'palavrão'] })
    expect(filterText('Não são idiotas', ['idiota']).matches).toEqual([])
    expect(filterText('vai embora agora', ['vai embora'])).toEqual({ text: '*** ****** agora', matches: ['vai embora'] })
  })

  it('masks links outside the exemption domains when the link rule is on', () => {
    const text = 'veja https://demo.edu/aula e https://sub.demo.edu/x e www.spam.example/oferta'
    expect(filterText(text, [], { on: false, exempt: [] }).matches).toEqual([])
    const out = filterText(text, [], { on: true, exempt: ['demo.edu'] })
    expect(out.matches).toEqual(['www.spam.example/oferta'])
    expect(out.text).toBe(`veja https://demo.edu/aula e https://sub.demo.edu/x e ${'*'.repeat('www.spam.example/oferta'.length)}`)
  })
})

describe('GET/PUT /mas/realm/{realm}/word_filter', () => {
  it('round-trips the sentences (trimmed, lowercase, without repeats) and records the change', async () => {
    const editor = await userWith('demo', [DASH, 'mas_word_filter_get', 'mas_word_filter_edit'])
    const before = (await (await api(DEMO, 'mas/realm/demo/word_filter', { token: editor.token })).json()) as { sentences: string[] }
    expect(before.sentences).toEqual(expect.arrayContaining(['idiota', 'palavrao']))
    const put = await api(DEMO, 'mas/realm/demo/word_filter', {
      method: 'PUT',
      token: editor.token,
      json: { sentences: [' Bobo ', 'bobo', 'cala a boca', ...before.sentences] },
    })
    expect(put.status).toBe(200)
    const after = (await (await api(DEMO, 'mas/realm/demo/word_filter', { token: editor.token })).json()) as { sentences: string[] }
    expect(after.sentences).toEqual(['bobo', 'cala a boca', 'idiota', 'palavrao'])
    const audit = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'word_filter' AND entity_id = 'demo' ORDER BY id DESC LIMIT 1").first<{
      changes: string
    }>()
    expect(JSON.parse(audit!.changes).sentences[1]).toEqual(['bobo', 'cala a boca', 'idiota', 'palavrao'])
    await expectEnvelope(await api(DEMO, 'mas/realm/demo/word_filter', { method: 'PUT', token: editor.token, json: { sentences: ['x'] } }), 400)
    await expectEnvelope(await api(DEMO, 'mas/realm/demo/word_filter', { method: 'PUT', token: editor.token, json: { words: [] } }), 400)
    expect((await checkWordFilter(env.DB, 'demo', 'Fica quieto, BOBO.')).text).toBe('Fica quieto, ****.')
  })

  it('reaches child realms of the caller only', async () => {
    const editor = await userWith('demo', [DASH, 'mas_word_filter_get'])
    expect((await api(DEMO, 'mas/realm/demo-sul/word_filter', { token: editor.token })).status).toBe(200)
    await expectEnvelope(await api(DEMO, 'mas/realm/escola/word_filter', { token: editor.token }), 404)
  })

  it('applies the platform default sentences in every realm', async () => {
    // The global configuration is the platform operator's.
    const root = await signIn(DEMO, 'demo', 'platform')
    await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { default_word_filter: ['proibidao'] } })
    expect((await checkWordFilter(env.DB, 'escola', 'isso é proibidão')).matches).toEqual(['proibidão'])
    await api(DEMO, 'mas/config', { method: 'PUT', token: root, json: { default_word_filter: [] } })
  })
})

describe('exemption domains', () => {
  it('lists and replaces the domains, used by the link rule', async () => {
    const admin = await userWith('demo', [DASH, 'mas_realm_get', 'mas_realm_edit'])
    const put = await api(DEMO, 'mas/realm/demo-norte/exemption', {
      method: 'PUT',
      token: admin.token,
      json: { domains: ['Escola.Example', 'escola.example', 'gov.br'] },
    })
    expect(await put.json()).toEqual({ domains: ['escola.example', 'gov.br'] })
    await expectEnvelope(await api(DEMO, 'mas/realm/demo-norte/exemption', { method: 'PUT', token: admin.token, json: { domains: ['not a domain'] } }), 400)
    await env.DB.prepare("UPDATE realm SET word_filter_links = 1 WHERE code = 'demo-norte'").run()
    expect((await checkWordFilter(env.DB, 'demo-norte', 'https://www.gov.br/x https://evil.example/')).matches).toEqual(['https://evil.example/'])
  })
})

describe('where users post text', () => {
  it('stores the descriptions of transfers and sponsorships masked, as their recipients read them', async () => {
    const payer = await funded(50, ['ledger_transfer_create', 'ledger_sponsor_create'])
    const to = await recipient()
    const transfer = await move('transfer', payer.token, { targets: [to.nick], points: 5, description: 'Para o idiota da turma' })
    expect(transfer.status, await transfer.clone().text()).toBe(201)
    const t = (await transfer.json()) as { id: string; description: string }
    expect(t.description).toBe('Para o ****** da turma')
    const child = await ledgerRealm({ parent_code: 'demo' })
    const sponsor = await move('sponsor', payer.token, { realm: child.code, points: 5, description: 'Palavrao e idiota' })
    expect(sponsor.status, await sponsor.clone().text()).toBe(201)
    const s = (await sponsor.json()) as { id: string; description: string }
    expect(s.description).toBe('******** e ******')
    const stored = await env.DB.prepare('SELECT description FROM ledger_transaction WHERE id IN (?, ?) ORDER BY id')
      .bind(t.id, s.id)
      .all<{ description: string }>()
    expect(stored.results.map((r) => r.description).sort()).toEqual(['******** e ******', 'Para o ****** da turma'])
  })

  it('stores complaint reports masked by the word filter, with a reason of the realm', async () => {
    const student = await signIn(DEMO, 'demo', 'student')
    const res = await api(DEMO, 'mas/report', {
      method: 'POST',
      token: student,
      json: { target_type: 'user', target_id: 'teacher@demo', reason: 'harassment', message: 'Ele me chamou de idiota.' },
    })
    expect(res.status).toBe(201)
    const report = (await res.json()) as ComplaintReport
    expect(report).toMatchObject({ message: 'Ele me chamou de ******.', status: 'open', reporter: 'student@demo', realm: 'demo' })
    await expectEnvelope(
      await api(DEMO, 'mas/report', { method: 'POST', token: student, json: { target_type: 'user', target_id: 'x', reason: 'boredom' } }),
      400,
      'picklist',
    )

    const staff = await userWith('demo', [DASH, 'mas_report_list', 'mas_report_edit'])
    const open = (await (await api(DEMO, 'mas/report?filter=open&limit=100', { token: staff.token })).json()) as { items: ComplaintReport[] }
    expect(open.items.map((r) => r.id)).toContain(report.id)
    await api(DEMO, `mas/report/${report.id}`, { method: 'PUT', token: staff.token, json: { status: 'resolved', resolution: 'Conversamos com o professor.' } })
    const stillOpen = (await (await api(DEMO, 'mas/report?filter=open&limit=100', { token: staff.token })).json()) as { items: ComplaintReport[] }
    expect(stillOpen.items.map((r) => r.id)).not.toContain(report.id)
    await expectEnvelope(await api(DEMO, 'mas/report?filter=whatever', { token: staff.token }), 400)
  })

  it('refuses reports where the realm takes none', async () => {
    await env.DB.prepare("UPDATE realm SET report_enabled = 0 WHERE code = 'demo-sul'").run()
    const admin = await signIn('demo-sul.localhost', 'demo-sul', 'admin')
    await expectEnvelope(
      await api('demo-sul.localhost', 'mas/report', { method: 'POST', token: admin, json: { target_type: 'room', target_id: 'r1', reason: 'spam' } }),
      403,
      'disabled',
    )
  })

  it('refuses a user name caught by the filter instead of storing it masked', async () => {
    const admin = await userWith('demo', [DASH, 'mas_user_create', 'mas_user_edit'])
    const body = await expectEnvelope(
      await api(DEMO, 'mas/user', { method: 'POST', token: admin.token, json: { nick: `n${crypto.randomUUID().slice(0, 6)}`, name: 'Idiota da Silva' } }),
      422,
      'word_filter',
    )
    expect(body.errors[0]).toMatchObject({ field: 'name', message: 'validation.word_filter' })
  })
})
