import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

/**
 * A local OpenID Connect issuer for tests, speaking the protocol Google's does for the browser's implicit flow:
 * discovery document, JWKS with its own RSA key, and an authorization endpoint that shows an account chooser and
 * answers `response_type=id_token` by redirecting to `redirect_uri#id_token=…&state=…` (or `#error=access_denied`).
 * The product under test verifies these tokens exactly as it verifies Google's.
 */
export interface IssuerAccount {
  sub: string
  email?: string
  email_verified?: boolean
  name: string
  /** Seconds of validity of the tokens issued for this account; negative issues tokens already expired. */
  lifetime?: number
}

export const ISSUER_ACCOUNTS: IssuerAccount[] = [
  { sub: '1001', email: 'root@demo.edu', email_verified: true, name: 'Root Demo' },
  { sub: '1002', email: 'nova.professora@demo.edu', email_verified: true, name: 'Nova Professora' },
  { sub: '1003', email: 'aluno.novo@aluno.demo.edu', email_verified: true, name: 'Aluno Novo' },
  { sub: '1004', email: 'visitante@gmail.example', email_verified: true, name: 'Visitante' },
  { sub: '1005', name: 'Sem E-mail' },
  { sub: '1006', email: 'nao.verificado@demo.edu', email_verified: false, name: 'Não Verificado' },
  { sub: '1007', email: 'atrasado@demo.edu', email_verified: true, name: 'Relógio Atrasado', lifetime: -3600 },
]

export interface RunningIssuer {
  url: string
  jwksUrl: string
  stop(): Promise<void>
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

function signJwt(privateKey: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))
  const body = b64url(JSON.stringify(claims))
  const signer = createSign('RSA-SHA256')
  signer.update(`${head}.${body}`)
  return `${head}.${body}.${signer.sign(privateKey).toString('base64url')}`
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => resolve(new URLSearchParams(raw)))
    req.on('error', reject)
  })
}

export async function startIssuer(accounts: IssuerAccount[] = ISSUER_ACCOUNTS, port = 0): Promise<RunningIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomUUID()
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }
  let base = ''

  const authorizeParams = ['client_id', 'redirect_uri', 'response_type', 'scope', 'nonce', 'state', 'response_mode']

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base)
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        jwks_uri: `${base}/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      })
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return json(res, { keys: [jwk] })
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const p = url.searchParams
      if (p.get('response_type') !== 'id_token' || !p.get('client_id') || !p.get('redirect_uri') || !p.get('nonce')) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_request')
        return
      }
      const hidden = authorizeParams.map((k) => `<input type="hidden" name="${k}" value="${escape(p.get(k) ?? '')}">`).join('')
      const choices = accounts
        .map((a) => `<button type="submit" name="account" value="${a.sub}">${escape(a.name)} ${escape(a.email ?? '(sem e-mail)')}</button>`)
        .join('<br>')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Escolha uma conta</title></head><body>
         <h1>Escolha uma conta</h1><form method="post" action="/authorize">${hidden}${choices}<br>
         <button type="submit" name="decision" value="deny">Cancelar</button></form></body></html>`,
      )
      return
    }
    if (req.method === 'POST' && url.pathname === '/authorize') {
      const form = await readForm(req)
      const redirect = new URL(form.get('redirect_uri') ?? '')
      const state = form.get('state') ?? ''
      const account = accounts.find((a) => a.sub === form.get('account'))
      const fragment = new URLSearchParams()
      if (form.get('decision') === 'deny' || !account) {
        fragment.set('error', 'access_denied')
      } else {
        const now = Math.floor(Date.now() / 1000)
        const claims: Record<string, unknown> = {
          iss: base,
          aud: form.get('client_id'),
          sub: account.sub,
          iat: now,
          exp: now + (account.lifetime ?? 3600),
          nonce: form.get('nonce'),
          name: account.name,
        }
        if (account.email) claims.email = account.email
        if (account.email_verified !== undefined) claims.email_verified = account.email_verified
        fragment.set('id_token', signJwt(privateKey, kid, claims))
      }
      if (state) fragment.set('state', state)
      redirect.hash = fragment.toString()
      res.writeHead(302, { location: redirect.toString() }).end()
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => res.writeHead(500).end(String(err)))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: actual } = server.address() as { port: number }
  base = `http://127.0.0.1:${actual}`
  return {
    url: base,
    jwksUrl: `${base}/jwks`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' }).end(JSON.stringify(body))
}

// `npx tsx tests/support/oidc-issuer.ts [port]` runs the issuer alone, to try Google sign-in offline with `npm start`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const issuer = await startIssuer(ISSUER_ACCOUNTS, Number(process.argv[2] ?? 8799))
  console.log(`Local OpenID issuer at ${issuer.url}\n  GOOGLE_ISSUER=${issuer.url} GOOGLE_JWKS_URL=${issuer.jwksUrl} npm start`)
}
