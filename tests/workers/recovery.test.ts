import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import worker from '../../worker/index'
import { pairKey } from '../../worker/db/throttle'
import { emailSender, HttpEmailSender, OutboxSender } from '../../worker/lib/mail'
import { sha256Hex } from '../../worker/lib/crypto'
import { DEMO, ESCOLA, api, expectEnvelope, signIn, userWith } from './helpers'

// Password hashing (600,000 PBKDF2 iterations) makes these slower than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

type Mail = { id: number; to_address: string; subject: string; text: string }

const DASH = 'dashboard_dashboard_access'
let staff: string
beforeAll(async () => {
  staff = (await userWith('demo', [DASH])).token
})

/** The realm's outbox as a signed-in staff member of that realm reads it (the tests run the Worker in development mode). */
async function outbox(host = DEMO, token = staff): Promise<Mail[]> {
  const res = await api(host, 'dev/outbox', { token })
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as { items: Mail[] }).items
}

/** The Worker's own fetch with this environment (e.g. without DEV_MODE, as a deployed Worker runs). */
async function fetchWith(bindings: Env, host: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('host', host)
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(`http://${host}${path}`, { redirect: 'manual', ...init, headers }), bindings, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

async function recover(login: string, lang = 'pt-BR', host = DEMO, realm = 'demo'): Promise<Response> {
  return api(host, 'mas/password/recover', { method: 'POST', json: { realm, login, lang } })
}

const keyOf = (mail: Mail) => new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('key')!
const reset = (key: string, password: string, confirm = password, host = DEMO) =>
  api(host, 'mas/password/reset', { method: 'POST', json: { password, confirm }, headers: { 'x-reset-key': key } })

describe('password recovery', () => {
  it('e-mails a reset link to the account, by nick or by e-mail, in the reader’s language', async () => {
    expect((await recover('teacher')).status).toBe(202)
    const [mail] = await outbox()
    expect(mail.to_address).toBe('paulo@demo.edu')
    expect(mail.subject).toBe('Redefinição de senha — Demo Academy')
    expect(mail.text).toContain('http://demo.localhost/authentication/recover?key=')
    expect(mail.text).toContain('30 minutos')
    const stored = await env.DB.prepare('SELECT key_hash FROM password_reset WHERE nick = ?').bind('teacher@demo').all<{ key_hash: string }>()
    expect(stored.results.map((r) => r.key_hash)).toContain(await sha256Hex(keyOf(mail)))
    expect(JSON.stringify(stored.results)).not.toContain(keyOf(mail))
    expect((await recover('MARINA@demo.edu', 'en-US')).status).toBe(202)
    const [english] = await outbox()
    expect(english).toMatchObject({ to_address: 'marina@demo.edu', subject: 'Password reset — Demo Academy' })
  })

  it('answers the same for an unknown account, and sends nothing', async () => {
    const before = (await outbox()).length
    const res = await recover('nobody-here')
    expect(res.status).toBe(202)
    expect(await res.json()).toEqual({ sent: true })
    expect((await outbox()).length).toBe(before)
  })

  it('sends at most one message a minute per account', async () => {
    await recover('student')
    const before = (await outbox()).length
    await recover('student')
    expect((await outbox()).length).toBe(before)
  })

  it('resets the password with the key once, ending every session of the account', async () => {
    await env.DB.prepare("DELETE FROM password_reset WHERE nick = 'manager@demo'").run()
    const session = await signIn(DEMO, 'demo', 'manager')
    await recover('manager')
    const key = keyOf((await outbox()).find((m) => m.to_address === 'marina@demo.edu')!)
    // Failures counted against the account, from any address, are forgotten with the reset.
    await env.DB.prepare(
      "INSERT INTO signin_throttle (realm, kind, key, failures, last_failure_at) VALUES ('demo', 'account', 'manager@demo', 12, ?1), ('demo', 'pair', ?2, 7, ?1)",
    )
      .bind(new Date().toISOString(), await pairKey('manager@demo', '10.9.9.9'))
      .run()
    const res = await reset(key, 'new-password-1')
    expect(res.status, await res.clone().text()).toBe(200)
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM signin_throttle WHERE key LIKE '%manager@demo'").first<{ n: number }>())?.n).toBe(0)
    await expectEnvelope(await api(DEMO, 'mas/session', { token: session }), 401, 'unauthorized')
    await expectEnvelope(await api(DEMO, 'device', { method: 'POST', json: { realm: 'demo', nick: 'manager', password: 'demo1234' } }), 401, 'credentials')
    expect(await signIn(DEMO, 'demo', 'manager', 'new-password-1')).toBeTruthy()
    await expectEnvelope(await reset(key, 'another-pass-2'), 409, 'reset_key_used')
    // One audit record for the one reset, naming no password; the refused replay left none.
    const { results } = await env.DB.prepare(
      "SELECT actor, changes FROM audit_log WHERE realm = 'demo' AND entity = 'user' AND entity_id = 'manager@demo' AND action = 'password_reset'",
    ).all<{ actor: string; changes: string }>()
    expect(results).toEqual([{ actor: 'manager@demo', changes: JSON.stringify({ password: ['set', 'reset'] }) }])
  })

  it('refuses a mismatched confirmation without spending the key', async () => {
    await env.DB.prepare("DELETE FROM password_reset WHERE nick = 'root@demo'").run()
    await recover('root')
    const key = keyOf((await outbox()).find((m) => m.to_address === 'root@demo.edu')!)
    const body = await expectEnvelope(await reset(key, 'new-password-1', 'new-password-2'), 400, 'check')
    expect(body.errors[0]).toMatchObject({ field: 'confirm', message: 'validation.password_mismatch' })
    await expectEnvelope(await reset(key, 'short'), 400, 'min_length')
    expect((await reset(key, 'demo1234-again')).status).toBe(200)
    await reset(key, 'demo1234')
  })

  it('refuses unknown, malformed and expired keys', async () => {
    await expectEnvelope(await reset('A'.repeat(43), 'new-password-1'), 404, 'reset_key_not_found')
    await expectEnvelope(await reset('not a key', 'new-password-1'), 400, 'reset_key_invalid')
    await env.DB.prepare("DELETE FROM password_reset WHERE nick = 'teacher@demo'").run()
    await recover('teacher')
    const key = keyOf((await outbox()).find((m) => m.to_address === 'paulo@demo.edu')!)
    await env.DB.prepare("UPDATE password_reset SET expires_at = '2000-01-01T00:00:00.000Z' WHERE key_hash = ?")
      .bind(await sha256Hex(key))
      .run()
    await expectEnvelope(await reset(key, 'new-password-1'), 410, 'reset_key_expired')
  })

  it('refuses a key on another realm’s host', async () => {
    await env.DB.prepare("DELETE FROM password_reset WHERE nick = 'teacher@demo'").run()
    await recover('teacher')
    const key = keyOf((await outbox()).find((m) => m.to_address === 'paulo@demo.edu')!)
    await expectEnvelope(await reset(key, 'new-password-1', 'new-password-1', ESCOLA), 404, 'reset_key_not_found')
    expect((await reset(key, 'demo1234')).status).toBe(200)
  })

  it('builds the link from the realm’s own console address, never from the Host header', async () => {
    await env.DB.prepare("DELETE FROM password_reset WHERE nick = 'teacher@demo'").run()
    // evil.example is not a realm host, so it serves every realm: the request names demo and asks for teacher's link.
    expect((await recover('teacher', 'pt-BR', 'evil.example')).status).toBe(202)
    const [mail] = await outbox()
    expect(mail.to_address).toBe('paulo@demo.edu')
    expect(mail.text).not.toContain('evil.example')
    expect(mail.text).toMatch(/http:\/\/demo\.localhost\/authentication\/recover\?key=[\w-]{43}\n/)
  })

  it('uses https and no port for a deployed host, the dashboard_url when set, and sends nothing without an address', async () => {
    const user = (realm: string) =>
      env.DB.prepare("INSERT INTO user (realm, nick, name, email, origin_realm) VALUES (?, ?, 'Reader', ?, ?)").bind(
        realm,
        `reader@${realm}`,
        `reader@${realm}.example`,
        realm,
      )
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO realm (code, name, nick_suffix) VALUES ('rhost', 'Hosted', '@rhost'), ('rdash', 'Dashboard', '@rdash'), ('rnone', 'Nowhere', '@rnone')",
      ),
      env.DB.prepare("INSERT INTO realm_host (host, realm) VALUES ('console.rhost.example', 'rhost')"),
      env.DB.prepare("UPDATE realm SET dashboard_url = 'https://painel.rdash.example/' WHERE code = 'rdash'"),
      user('rhost'),
      user('rdash'),
      user('rnone'),
    ])
    const admin = async (realm: string) => (await userWith(realm, [DASH])).token
    const mails = async (realm: string) => {
      const res = await api('localhost', 'dev/outbox', { token: await admin(realm), headers: { 'x-api-realm': realm } })
      expect(res.status).toBe(200)
      return ((await res.json()) as { items: Mail[] }).items
    }
    expect((await recover('reader', 'en-US', 'evil.example:8443', 'rhost')).status).toBe(202)
    expect((await mails('rhost'))[0].text).toMatch(/https:\/\/console\.rhost\.example\/authentication\/recover\?key=[\w-]{43}\n/)
    // The dashboard address is a multi-realm host here, so the link names the realm too.
    expect((await recover('reader', 'en-US', 'evil.example', 'rdash')).status).toBe(202)
    expect((await mails('rdash'))[0].text).toMatch(/https:\/\/painel\.rdash\.example\/authentication\/recover\?key=[\w-]{43}&realm=rdash\n/)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const res = await recover('reader', 'en-US', 'localhost', 'rnone')
      expect(res.status).toBe(202)
      expect(await res.json()).toEqual({ sent: true })
      expect(await mails('rnone')).toEqual([])
      expect(errors.mock.calls.flat().join(' ')).toContain('rnone')
    } finally {
      errors.mockRestore()
    }
  })
})

describe('the development outbox', () => {
  it('answers only a signed-in staff member of the realm', async () => {
    await expectEnvelope(await api(DEMO, 'dev/outbox'), 401, 'unauthorized')
    const student = await signIn(DEMO, 'demo', 'student')
    await expectEnvelope(await api(DEMO, 'dev/outbox', { token: student }), 403, 'forbidden')
    const other = (await userWith('escola', [DASH])).token
    await expectEnvelope(await api(DEMO, 'dev/outbox', { token: other }), 401, 'realm')
    expect((await api(DEMO, 'dev/outbox', { token: staff })).status).toBe(200)
    // The realm's development flag is not what opens it: a staff member of a realm without the flag reads their own.
    expect((await api(ESCOLA, 'dev/outbox', { token: other })).status).toBe(200)
  })

  it('does not exist when the Worker does not run in development mode, even for staff and development realms', async () => {
    const deployed = { ...env, DEV_MODE: undefined }
    expect((await fetchWith(env, DEMO, '/api/dev/outbox', { headers: { 'x-api-key': staff } })).status).toBe(200)
    await expectEnvelope(await fetchWith(deployed, DEMO, '/api/dev/outbox', { headers: { 'x-api-key': staff } }), 404, 'not_found')
    await expectEnvelope(await fetchWith(deployed, DEMO, '/api/dev/outbox'), 404, 'not_found')
    await expectEnvelope(await fetchWith({ ...env, DEV_MODE: 'true' }, DEMO, '/api/dev/outbox', { headers: { 'x-api-key': staff } }), 404, 'not_found')
  })
})

describe('the HTTP e-mail provider', () => {
  it('sends a message as the provider’s API expects, and fails loudly on a refused key', async () => {
    const url = inject('mailApi')
    const mail = { realm: 'demo', to: 'paulo@demo.edu', subject: 'Redefinição de senha — Demo Academy', text: 'link' }
    await new HttpEmailSender(url, 'test-mail-key', 'console@demo.edu').send(mail)
    const received = (await (await fetch(`${url}/emails`)).json()) as unknown[]
    expect(received.at(-1)).toEqual({ from: 'console@demo.edu', to: ['paulo@demo.edu'], subject: mail.subject, text: 'link' })
    await expect(new HttpEmailSender(url, 'wrong-key', 'console@demo.edu').send(mail)).rejects.toThrow('HTTP 401')
  })

  it('is the sender when configured, the outbox otherwise', () => {
    expect(emailSender({ ...env, EMAIL_API_URL: 'https://mail.example', EMAIL_API_KEY: 'k' })).toBeInstanceOf(HttpEmailSender)
    expect(emailSender(env)).toBeInstanceOf(OutboxSender)
  })
})
