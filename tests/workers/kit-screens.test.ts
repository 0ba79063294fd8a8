import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '~/lib/form-fields'
import { catalogues } from '~/i18n/catalogues'
import { realmFields, realmFormValues, SECRETS } from '~/routes/_console+/realm+/__realm-fields'
import { INFRA_FIELDS } from '#shared/schemas/realm-settings'
import { DEMO, api, call, userWith } from './helpers'
import { user } from './factories'

const DASH = 'dashboard_dashboard_access'

/** The form data a browser posts for these fields showing `values` (API shape), leaving out the disabled ones. */
function posted(fields: FieldSpec[], values: Record<string, unknown>, disabled: string[] = []): FormData {
  const form = new FormData()
  form.set('_locale', 'pt-BR')
  for (const f of fields) {
    if (disabled.includes(f.name)) continue
    const [head, key] = f.name.split('.', 2)
    const value = key === undefined ? values[head] : (values[head] as Record<string, unknown> | undefined)?.[key]
    if (f.kind === 'checkbox') {
      if (value === true) form.set(f.name, 'on')
    } else if (f.kind === 'checkboxes') for (const item of (value as string[] | undefined) ?? []) form.append(f.name, item)
    else if (f.kind === 'lines') form.set(f.name, Array.isArray(value) ? value.join('\n') : String(value ?? ''))
    else form.set(f.name, value === null || value === undefined ? '' : String(value))
  }
  return form
}

const post = (path: string, cookie: string, form: FormData) => call(DEMO, path, { method: 'POST', body: form, headers: { cookie, origin: `http://${DEMO}` } })

const pt = catalogues['pt-BR']
/** The errors a refused submission renders under the fields (the page a browser without script gets back). */
const shownErrors = (html: string) => [...html.matchAll(/<p class="error" id="[^"]*-([\w.[\]]+)-error">([^<]*)<\/p>/g)].map((m) => [m[1], m[2]])
/** The kit's error of one line of a text box, as shown. */
const lineError = (line: number, rule: string) => pt['form.line_error'].replace('{{line}}', String(line)).replace('{{rule}}', rule)

describe('the realm editor on the form kit', () => {
  const operator = () => userWith('demo', [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_create', 'mas_realm_edit', 'mas_realm_edit_infra'])
  const editor = () => userWith('demo', [DASH, 'mas_realm_list', 'mas_realm_get', 'mas_realm_edit'])

  async function child() {
    const code = `k${crypto.randomUUID().slice(0, 7)}`
    const res = await api(DEMO, 'mas/realm', {
      method: 'POST',
      token: (await operator()).token,
      json: { code, name: `Realm ${code}`, parent_code: 'demo', hosts: [`${code}.localhost`], msg_per_day: 40 },
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const stored = async () => (await (await api(DEMO, `mas/realm/${code}`, { token: (await operator()).token })).json()) as Record<string, unknown>
    return { code, stored }
  }

  it('saves what an editor without infra rights typed and keeps the infra fields they see read-only (not posted)', async () => {
    const { code, stored } = await child()
    const before = await stored()
    const form = posted(realmFields('edit'), realmFormValues(before), [...INFRA_FIELDS, ...SECRETS])
    form.set('name', 'Renomeado pelo editor')
    form.set('msg_per_day', '55')
    const res = await post(`/realm/edit/${code}`, (await editor()).cookie, form)
    expect([302, 303], await res.clone().text()).toContain(res.status)
    expect(res.headers.get('location')).toBe(`/realm/edit/${code}`)
    const after = await stored()
    expect(after).toMatchObject({ name: 'Renomeado pelo editor', msg_per_day: 55, hosts: [`${code}.localhost`], api_endpoint: before.api_endpoint })
    // Only what changed was sent: the audit record of the update names those two fields.
    const audit = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'realm' AND entity_id = ? AND action = 'update' ORDER BY id DESC LIMIT 1")
      .bind(code)
      .first<{ changes: string }>()
    const changed = Object.keys(JSON.parse(audit!.changes) as Record<string, unknown>).filter((k) => !k.startsWith('updated_'))
    expect(changed.sort()).toEqual(['msg_per_day', 'name'])
  })

  it('answers a wrong value on its field (a host line named by its line) and changes nothing', async () => {
    const { code, stored } = await child()
    const before = await stored()
    const form = posted(realmFields('edit'), realmFormValues(before), SECRETS)
    form.set('msg_per_day', 'muitas')
    form.set('hosts', `${code}.localhost\n\nnot a host`)
    const res = await post(`/realm/edit/${code}`, (await operator()).cookie, form)
    expect(res.status).toBe(400)
    expect(shownErrors(await res.text())).toEqual([
      ['hosts', lineError(3, pt['validation.host'])],
      ['msg_per_day', pt['validation.number']],
    ])
    expect(await stored()).toEqual(before)
  })
})

describe('the user form on the form kit', () => {
  const admin = () => userWith('demo', [DASH, 'mas_user_list', 'mas_user_get', 'mas_user_create', 'mas_user_edit'])
  const base = (fields: Record<string, string>) => {
    const form = new FormData()
    form.set('_locale', 'pt-BR')
    for (const [k, v] of Object.entries(fields)) form.set(k, v)
    return form
  }

  it('refuses a bad e-mail and a taken nick on their fields, keeping the password out of the answer', async () => {
    const taken = await user('demo')
    const bad = await post('/user/create', (await admin()).cookie, base({ nick: 'novo.nick', name: 'Novo', email: 'sem-arroba', password: 'segredo-longo' }))
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(shownErrors(text)).toEqual([['email', pt['validation.email']]])
    expect(text).toContain('value="novo.nick"')
    expect(text).not.toContain('segredo-longo')
    const dup = await post('/user/create', (await admin()).cookie, base({ nick: taken.nick, name: 'Outro' }))
    expect(dup.status).toBe(409)
    expect(shownErrors(await dup.text())).toEqual([['nick', pt['errors.conflict']]])
  })

  it('an edit sends only what changed: a save without changes writes nothing', async () => {
    const someone = await user('demo')
    const audits = () =>
      env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'user' AND entity_id = ? ORDER BY id")
        .bind(someone.nick)
        .all<{ changes: string }>()
        .then((r) => r.results.map((x) => Object.keys(JSON.parse(x.changes) as Record<string, unknown>).filter((k) => !k.startsWith('updated_'))))
    const save = async (name: string) => {
      const form = base({ name, email: '', phone: '', external_id: '', supervisees: '', 'extra.matricula': '' })
      const res = await post(`/user/edit/${encodeURIComponent(someone.nick)}`, (await admin()).cookie, form)
      expect([302, 303], await res.clone().text()).toContain(res.status)
    }
    await save('Nome Novo')
    expect(await audits()).toEqual([['name']])
    await save('Nome Novo')
    expect(await audits()).toEqual([['name']])
  })
})
