import { readFileSync } from 'node:fs'
import { url } from './browser'

/**
 * Personas for the public chat's browser and party tests, made through the realm API as the demo realm's root (each
 * file makes its own: names carry the file's tag, nothing depends on rows another file makes).
 */

const headers = { 'x-api-realm': 'demo' }
let token: Promise<string> | null = null

async function rootToken(): Promise<string> {
  token ??= (async () => {
    const res = await fetch(url('localhost', '/api/device'), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
    })
    if (res.status !== 200) throw new Error(`root sign-in: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { auth_token: string }).auth_token
  })()
  return token
}

/** A call to the demo realm's API: as root, or as a guest (`as: null`), or with another token. */
export async function demoApi<T>(method: string, path: string, body?: unknown, as: string | null | undefined = undefined): Promise<T> {
  const key = as === undefined ? await rootToken() : as
  const res = await fetch(url('localhost', `/api/${path}`), {
    method,
    headers: {
      ...headers,
      ...(key ? { 'x-api-key': key } : {}),
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

export const DIALOG_QUESTION = 'Quando abre a biblioteca?'
export const DIALOG_ANSWER = 'A biblioteca abre às 8h, de segunda a sexta.'
export const PDF_QUOTE = 'A respiração celular acontece nas mitocôndrias.'

/**
 * A persona ready to chat: public or private, its terms accepted, a greeting, a conversation dialog, the knowledge
 * PDF fixture processed, and everything saved (the public chat reads saved items only).
 */
export async function chatPersona(name: string, isPublic = true): Promise<{ id: string }> {
  const p = await demoApi<{ id: string }>('POST', 'personai/persona', {
    name,
    is_public: isPublic,
    synchronized_speech: true,
    messages: {
      greeting: `Olá! Eu sou ${name}.`,
      unknown_answer: 'Ainda não sei responder isso.',
      call_helper: 'Vou chamar a secretaria.',
    },
  })
  await demoApi('POST', `personai/persona/${p.id}/terms`, { accept: true })
  await demoApi('POST', `personai/persona/${p.id}/dialog`, {
    type: 'conversation',
    questions: [DIALOG_QUESTION],
    answers: [{ type: 'text', text: DIALOG_ANSWER }],
  })
  const form = new FormData()
  const pdf = readFileSync(new URL('../fixtures/knowledge/biologia.pdf', import.meta.url))
  form.append('files', new File([new Uint8Array(pdf)], 'biologia.pdf', { type: 'application/pdf' }))
  await demoApi('POST', `personai/persona/${p.id}/knowledge`, form)
  // Processing runs after the upload's answer (the knowledge list reports it): waited for here, in a hook or a test.
  for (let tries = 0; ; tries++) {
    const statuses = (await demoApi<{ items: { status: string }[] }>('GET', `personai/persona/${p.id}/knowledge`)).items.map((i) => i.status)
    if (statuses.every((st) => st === 'processed')) break
    if (statuses.includes('failed') || tries > 150) throw new Error(`knowledge not processed: ${statuses.join(', ')}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  await demoApi('POST', `personai/persona/${p.id}/save`)
  return p
}
