import { expect } from 'vitest'
import { solvePow } from '#shared/pow'
import type { CaptchaChallenge, CaptchaVerification } from '#shared/schemas/captcha'
import { catalogues } from '~/i18n/catalogues'
import { api } from './helpers'

/** A fresh client address per test, so the per-address throttling buckets of tests never meet. */
export function randomIp(): string {
  const b = crypto.getRandomValues(new Uint8Array(3))
  return `10.${b[0]}.${b[1]}.${b[2]}`
}

/** A visitor session key as the browser makes one. */
export function newSessionKey(): string {
  return `sk-${crypto.randomUUID()}`
}

export async function challenge(host: string, realm: string, sessionKey: string, type?: string, lang?: string): Promise<CaptchaChallenge> {
  const res = await api(host, 'captcha/challenge', { method: 'POST', json: { realm, type, lang }, headers: { 'x-session-key': sessionKey } })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as CaptchaChallenge
}

export function verify(host: string, realm: string, sessionKey: string, type: string, payload: Record<string, unknown>): Promise<Response> {
  return api(host, 'captcha/verify', { method: 'POST', json: { type, realm, payload }, headers: { 'x-session-key': sessionKey } })
}

/** Solves a proof-of-work challenge the way the browser's Web Worker does, and verifies it. */
export async function solveCaptcha(host: string, realm: string, sessionKey: string): Promise<string> {
  const c = await challenge(host, realm, sessionKey, 'pow')
  const nonce = await solvePow(c.challengeId, c.data.difficulty ?? 0)
  const res = await verify(host, realm, sessionKey, 'pow', { challengeId: c.challengeId, solution: nonce })
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as CaptchaVerification).token
}

const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  [
    'zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezesseis dezessete dezoito dezenove vinte',
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty',
  ].flatMap((line) => line.split(' ').map((w, i) => [w, i])),
)

/** Reads a worded sum or difference ("Quanto é sete mais três?") and answers it, as a person would. */
export function solveTextQuestion(question: string): string {
  const m = /(?:Quanto é|What is) (\S+) (mais|menos|plus|minus) (\S+)\?/.exec(question)
  if (!m) throw new Error(`unexpected question: ${question}`)
  const [a, b] = [NUMBER_WORDS[m[1]], NUMBER_WORDS[m[3]]]
  return String(m[2] === 'mais' || m[2] === 'plus' ? a + b : a - b)
}

/**
 * An id_token from the local OpenID issuer, obtained through its authorization endpoint as a browser would
 * (account chooser form → redirect with the token in the fragment).
 */
export async function googleIdToken(
  issuer: string,
  sub: string,
  opts: { clientId?: string; nonce?: string; deny?: boolean } = {},
): Promise<{ id_token?: string; error?: string }> {
  const form = new URLSearchParams({
    client_id: opts.clientId ?? 'demo-console.apps.googleusercontent.com',
    redirect_uri: 'http://demo.localhost/authentication/google/callback',
    response_type: 'id_token',
    scope: 'openid email profile',
    nonce: opts.nonce ?? 'test-nonce',
    state: 'test-state',
    ...(opts.deny ? { decision: 'deny' } : { account: sub }),
  })
  const res = await fetch(`${issuer}/authorize`, { method: 'POST', body: form, redirect: 'manual' })
  expect(res.status).toBe(302)
  const fragment = new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1))
  expect(fragment.get('state')).toBe('test-state')
  return { id_token: fragment.get('id_token') ?? undefined, error: fragment.get('error') ?? undefined }
}

/**
 * The text of a message key as the sign-in page renders it (pt-BR, HTML-escaped): the page is served without React,
 * so a failed attempt's answer is the page with its messages, not data for a script.
 */
export function rendered(key: string, values: Record<string, string> = {}): string {
  const text = Object.entries(values).reduce((t, [k, v]) => t.replace(`{{${k}}}`, v), catalogues['pt-BR'][key as keyof (typeof catalogues)['pt-BR']])
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')
}
