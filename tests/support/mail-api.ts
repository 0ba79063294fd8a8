import { createServer, type IncomingMessage } from 'node:http'

/**
 * A local stand-in for the HTTP e-mail provider, speaking its protocol: `POST /emails` with `Authorization: Bearer
 * <key>` and `{ from, to, subject, text }` answers `{ id }`; `GET /emails` (test only) lists what it received.
 */
export async function startMailApi(key: string): Promise<{ url: string; stop(): Promise<void> }> {
  const received: unknown[] = []
  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let raw = ''
      req.on('data', (c: Buffer) => (raw += c.toString()))
      req.on('end', () => resolve(raw))
    })
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/emails') {
      if (req.headers.authorization !== `Bearer ${key}`) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid key"}')
      const mail = JSON.parse(await body(req)) as { from?: string; to?: string[]; subject?: string; text?: string }
      if (!mail.from || !Array.isArray(mail.to) || !mail.subject) return res.writeHead(422, { 'content-type': 'application/json' }).end('{"message":"invalid"}')
      received.push(mail)
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `mail-${received.length}` }))
    }
    if (req.method === 'GET' && req.url === '/emails') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received))
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
