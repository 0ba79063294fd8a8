import { localFetch as fetch } from '../support/local-fetch'
import type { BenchContext, Scenario } from './harness'

export const title = 'Foundation: realm configuration, sign-in, session, console pages'

async function expectOk(res: Response, status = 200) {
  if (res.status !== status) throw new Error(`HTTP ${res.status}`)
  await res.arrayBuffer()
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const demo = ctx.base('demo.localhost')
  const signIn = () =>
    fetch(`${demo}/api/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
    })
  const { auth_token } = (await (await signIn()).json()) as { auth_token: string }
  const form = new FormData()
  form.set('nick', 'root')
  form.set('password', 'demo1234')
  const login = await fetch(`${demo}/login`, { method: 'POST', body: form, redirect: 'manual', headers: { origin: demo } })
  const cookie = /dash_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0]
  return [
    { name: 'GET /api/version', concurrency: 8, requests: 400, run: async () => expectOk(await fetch(`${demo}/api/version`)) },
    { name: 'GET /api/mas/realm/demo/config', concurrency: 8, requests: 400, run: async () => expectOk(await fetch(`${demo}/api/mas/realm/demo/config`)) },
    {
      name: 'GET /api/mas/session (token)',
      concurrency: 8,
      requests: 400,
      run: async () => expectOk(await fetch(`${demo}/api/mas/session`, { headers: { 'x-api-key': auth_token } })),
    },
    { name: 'POST /api/device (PBKDF2 600k)', concurrency: 4, requests: 40, run: async () => expectOk(await signIn()) },
    { name: 'GET / console page (SSR)', concurrency: 8, requests: 200, run: async () => expectOk(await fetch(`${demo}/`, { headers: { cookie } })) },
    { name: 'GET /realm list page (SSR)', concurrency: 8, requests: 200, run: async () => expectOk(await fetch(`${demo}/realm`, { headers: { cookie } })) },
  ]
}
