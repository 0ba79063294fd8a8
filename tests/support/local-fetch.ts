import { request } from 'node:http'

/**
 * fetch() for `*.localhost` hosts from Node: connects to 127.0.0.1 and sends the real Host header (Node's
 * resolver does not map subdomains of localhost, and its fetch() will not send a custom Host).
 */
export async function localFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input)
  const req = new Request(url, init)
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined
  const headers: Record<string, string> = { ...Object.fromEntries(req.headers), host: url.host }
  if (body) headers['content-length'] = String(body.length)
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: req.method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const h = new Headers()
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i], res.rawHeaders[i + 1])
        const status = res.statusCode ?? 500
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: h }))
      })
      res.on('error', reject)
    })
    r.on('error', reject)
    if (body) r.write(body)
    r.end()
  })
}
