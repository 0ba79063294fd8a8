import { createRequestHandler } from '@remix-run/cloudflare'
import { Hono } from 'hono'
import * as build from 'remix-server-build'
import '../app/load-context'
import { createApi } from './api'
import type { AppEnv } from './api/context'
import { cleanupExpiredFiles, fileHeaders, type FileRow } from './db/files'
import { resolveHost } from './db/realms'

const handleRemix = createRequestHandler(build)
const api = createApi()

/**
 * State-changing console requests must come from the console's own pages. The session cookie is SameSite=Lax,
 * and this check refuses any cross-origin POST/PUT/PATCH/DELETE (Origin header, or Sec-Fetch-Site when a
 * browser sends no Origin). The API itself authenticates with the x-api-key header, which no other site can send.
 */
function isCrossSiteWrite(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false
  const origin = request.headers.get('origin')
  if (origin) return origin !== new URL(request.url).origin
  const site = request.headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}

const app = new Hono<AppEnv>()

app.use('*', async (c, next) => {
  c.set('hostRealm', await resolveHost(c.env.DB, new URL(c.req.url).hostname))
  await next()
})

app.route('/api', api)

/** Uploaded files, by their storage key (the `cdn_full_url` of POST /api/mas/file), with safe headers. */
app.get('/files/*', async (c) => {
  const key = decodeURIComponent(new URL(c.req.url).pathname.slice('/files/'.length))
  const row = await c.env.DB.prepare('SELECT ext, name, permanent FROM file WHERE key = ?').bind(key).first<Pick<FileRow, 'ext' | 'name' | 'permanent'>>()
  const object = row ? await c.env.FILES.get(key) : null
  if (!row || !object) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' })
  const headers = fileHeaders(row)
  headers.set('ETag', object.httpEtag)
  headers.set('Content-Length', String(object.size))
  return new Response(object.body, { headers })
})

app.all('*', async (c) => {
  if (isCrossSiteWrite(c.req.raw)) {
    return c.text('Cross-site request refused.', 403)
  }
  return handleRemix(c.req.raw, {
    cloudflare: { env: c.env, ctx: c.executionCtx as ExecutionContext },
    hostRealm: c.get('hostRealm'),
    fetchApi: (request: Request) => Promise.resolve(app.fetch(request, c.env, c.executionCtx)),
  })
})

export default {
  fetch: app.fetch,
  /** Hourly (wrangler.toml [triggers]): removes temporary uploads whose time is up. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(cleanupExpiredFiles(env))
  },
} satisfies ExportedHandler<Env>
