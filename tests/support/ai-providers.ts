import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { mp4Fixture } from './mp4'

/**
 * A local stand-in for the AI layer's third parties, speaking their real protocols (docs ai.md "tested against the
 * protocol"), as the Google sign-in tests use a local OpenID issuer:
 * - OpenAI chat completions, `POST /v1/chat/completions` with `Authorization: Bearer <key>`: JSON mode
 *   (`response_format`), content parts (`text` and `image_url`; an image must be a base64 `data:image/…` URL or an
 *   http(s) URL, else 400 as OpenAI answers an invalid image), streaming (server-sent `chat.completion.chunk` events, usage with `stream_options`);
 * - D-ID talks, `POST /talks` (a text or an audio script) and `GET /talks/{id}` with `Authorization: Basic <key>`, and
 *   each finished talk's `result_url` (`GET /results/{id}.mp4`, a small MP4);
 * - ElevenLabs voice cloning, `POST /v1/voices/add` (multipart), and speech, `POST /v1/text-to-speech/{voice}`, with `xi-api-key`;
 * - Google Text-to-Speech, `POST /v1/text:synthesize?key=<key>` (base64 audio);
 * - MiniMax T2A v2, `POST /v1/t2a_v2?GroupId=<group>` with a bearer key (hex audio; errors in `base_resp`);
 * - LanguageTool, `POST /v2/check` (the essay checker, `languageToolMatches` below).
 * Speech fails for a text containing `fail`; the audio it answers is the bytes of `<provider>:<text>`.
 * A test tells it how to answer a model with `POST /__script { model, replies }` (each call of that model takes the
 * next reply: `content`, `status` for an HTTP failure, `stall` to never answer, `usage: null` to report none; then
 * the default: an echo of the last user message, as JSON in JSON mode). D-ID fails a talk whose `source_url`
 * contains `fail` (and reads one whose source contains `broken` as `error`, one with `slow` as `started` the first
 * time), ElevenLabs a voice named with `fail`. `GET /__requests` lists what it received.
 */
export interface Reply {
  content?: string
  status?: number
  stall?: boolean
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null
}

type Part = { type?: unknown; text?: unknown; image_url?: { url?: unknown } }
const validPart = (p: Part) =>
  (p?.type === 'text' && typeof p.text === 'string') ||
  (p?.type === 'image_url' &&
    typeof p.image_url?.url === 'string' &&
    /^(data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*|https?:\/\/\S+)$/.test(p.image_url.url))
/** A message's text: the string, or its text parts joined. */
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? (content as Part[]).map((p) => (p.type === 'text' ? String(p.text) : '')).join('\n') : ''

/**
 * LanguageTool's `POST /v2/check` (form `text`, `language`, optional `username` and `apiKey`): a misspelling
 * (category TYPOS, issue type misspelling) for each word of a short list, a GRAMMAR match for "a informação", a
 * STYLE match for "very very"; 500 for a text containing `ltfail`; 400 without `language`, 403 for a wrong key.
 */
const LT_TYPOS: Record<string, string> = { recieve: 'receive', teh: 'the', muinto: 'muito', excessão: 'exceção', aqui: 'aquí' }
function languageToolMatches(text: string) {
  const matches: unknown[] = []
  const match = (offset: number, length: number, replacements: string[], rule: { id: string; issueType: string; category: string }, message: string) =>
    matches.push({
      message,
      shortMessage: '',
      offset,
      length,
      replacements: replacements.map((value) => ({ value })),
      context: { text: text.slice(Math.max(0, offset - 20), offset + length + 20), offset: Math.min(offset, 20), length },
      sentence: text,
      rule: { id: rule.id, description: message, issueType: rule.issueType, category: { id: rule.category, name: rule.category } },
    })
  for (const m of text.matchAll(/\p{L}+/gu))
    if (LT_TYPOS[m[0].toLowerCase()])
      match(
        m.index!,
        m[0].length,
        [LT_TYPOS[m[0].toLowerCase()]],
        { id: 'MORFOLOGIK_RULE', issueType: 'misspelling', category: 'TYPOS' },
        'Possible spelling mistake found.',
      )
  for (const m of text.matchAll(/\ba informação\b/giu))
    match(m.index!, m[0].length, ['à informação'], { id: 'CRASE', issueType: 'grammar', category: 'GRAMMAR' }, 'Crase.')
  for (const m of text.matchAll(/\bvery very\b/giu))
    match(m.index!, m[0].length, ['very'], { id: 'EN_REPEATED', issueType: 'style', category: 'STYLE' }, 'Repetition.')
  return matches.sort((a, b) => (a as { offset: number }).offset - (b as { offset: number }).offset)
}

export async function startAiProviders(key: string): Promise<{ url: string; stop(): Promise<void> }> {
  const scripts = new Map<string, Reply[]>()
  const received: { path: string; auth: string | null; body: unknown }[] = []
  const stalled = new Set<ServerResponse>()
  let talks = 0
  /** Each talk's source and how many times it was read: `slow` in the source is `started` on its first read, `broken` ends `error`. */
  const talkSources = new Map<string, { source: string; reads: number }>()

  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => resolve(Buffer.concat(chunks)))
    })
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const openAiError = (res: ServerResponse, status: number, message: string) =>
    json(res, status, { error: { message, type: 'invalid_request_error', code: null } })

  const server = createServer(async (req, res) => {
    const raw = await read(req)
    const path = (req.url ?? '').split('?')[0]
    const auth = req.headers.authorization ?? (req.headers['xi-api-key'] as string | undefined) ?? null

    if (req.method === 'POST' && path === '/__script') {
      const { model, replies } = JSON.parse(raw.toString()) as { model: string; replies: Reply[] }
      scripts.set(model, [...replies])
      return json(res, 200, { ok: true })
    }
    if (req.method === 'GET' && path === '/__requests') return json(res, 200, received)

    if (req.method === 'POST' && path === '/v1/chat/completions') {
      let body: {
        model?: string
        messages?: { role: string; content: unknown }[]
        stream?: boolean
        stream_options?: { include_usage?: boolean }
        response_format?: { type: string }
      }
      try {
        body = JSON.parse(raw.toString())
      } catch {
        return openAiError(res, 400, 'We could not parse the JSON body of your request.')
      }
      received.push({ path, auth, body })
      if (auth !== `Bearer ${key}`) return openAiError(res, 401, 'Incorrect API key provided.')
      if (!body.model || !Array.isArray(body.messages)) return openAiError(res, 400, 'model and messages are required')
      const badPart = body.messages.some((m) => typeof m.content !== 'string' && !(Array.isArray(m.content) && m.content.every(validPart)))
      if (badPart) return openAiError(res, 400, "Invalid content: each part must be {type:'text',text} or {type:'image_url',image_url:{url}}.")
      const reply = scripts.get(body.model)?.shift() ?? {}
      if (reply.status) return openAiError(res, reply.status, 'The server had an error while processing your request.')
      const lastUser = textOf([...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '')
      const content = reply.content ?? (body.response_format ? JSON.stringify({ echo: lastUser }) : `Echo: ${lastUser}`)
      // An image part counts 85 tokens (OpenAI's low-detail price), text about four characters a token.
      const promptTokens = body.messages.reduce(
        (n, m) => n + Math.ceil(textOf(m.content).length / 4) + (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').length * 85 : 0),
        0,
      )
      const usage =
        reply.usage === null
          ? undefined
          : (reply.usage ?? {
              prompt_tokens: promptTokens,
              completion_tokens: Math.ceil(content.length / 4),
              total_tokens: promptTokens + Math.ceil(content.length / 4),
            })
      const id = `chatcmpl-${received.length}`
      const created = Math.floor(Date.now() / 1000)
      if (!body.stream) {
        if (reply.stall) return void stalled.add(res)
        return json(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          ...(usage ? { usage } : {}),
        })
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
      const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })
      chunk({ role: 'assistant', content: '' })
      const pieces = content.match(/[\s\S]{1,5}/g) ?? []
      for (const [i, piece] of pieces.entries()) {
        chunk({ content: piece })
        // A stalled stream sends its first piece, then nothing (the adapter's idle timeout must end the call).
        if (reply.stall && i === 0) return void stalled.add(res)
      }
      chunk({}, 'stop')
      if (body.stream_options?.include_usage && usage) send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })
      send('[DONE]')
      return res.end()
    }

    if (req.method === 'POST' && path === '/talks') {
      const body = JSON.parse(raw.toString() || '{}') as { source_url?: string; script?: { type?: string; audio_url?: string } }
      received.push({ path, auth, body })
      if (auth !== `Basic ${key}`) return json(res, 401, { kind: 'AuthorizationError', description: 'Unauthorized' })
      if (!body.source_url) return json(res, 400, { kind: 'ValidationError', description: 'source_url is required' })
      // An audio script (a lesson slide's narration) names the audio by an http(s) URL, as D-ID requires.
      if (body.script?.type === 'audio' && !/^https?:\/\/\S+$/.test(body.script.audio_url ?? ''))
        return json(res, 400, { kind: 'ValidationError', description: 'script.audio_url must be a URL' })
      if (body.source_url.includes('fail')) return json(res, 500, { kind: 'InternalServerError', description: 'Internal error' })
      talks += 1
      talkSources.set(`tlk_${talks}`, { source: body.source_url, reads: 0 })
      return json(res, 201, { id: `tlk_${talks}`, status: 'created', created_at: new Date().toISOString(), object: 'talk' })
    }
    const talk = /^\/talks\/([^/]+)$/.exec(path)
    if (req.method === 'GET' && talk) {
      received.push({ path, auth, body: null })
      if (auth !== `Basic ${key}`) return json(res, 401, { kind: 'AuthorizationError', description: 'Unauthorized' })
      const known = talkSources.get(talk[1])
      if (known) known.reads += 1
      if (known?.source.includes('broken'))
        return json(res, 200, { id: talk[1], status: 'error', error: { kind: 'FaceError', description: 'No face detected' } })
      if (known?.source.includes('slow') && known.reads === 1) return json(res, 200, { id: talk[1], status: 'started' })
      return json(res, 200, { id: talk[1], status: 'done', result_url: `http://${req.headers.host}/results/${talk[1]}.mp4` })
    }

    // A finished talk's video (its result_url): a small MP4 naming the talk.
    const result = /^\/results\/(tlk_\d+)\.mp4$/.exec(path)
    if (req.method === 'GET' && result) {
      if (!talkSources.has(result[1])) return res.writeHead(404).end()
      return res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.from(mp4Fixture({ tracks: ['avc', 'aac'], seconds: 2, mdatBytes: 64 })))
    }

    const query = new URL(req.url ?? '/', 'http://x').searchParams
    if (req.method === 'POST' && path === '/v1/text:synthesize') {
      const body = JSON.parse(raw.toString() || '{}') as { input?: { text?: string }; voice?: unknown; audioConfig?: unknown }
      received.push({ path, auth: query.get('key'), body })
      if (query.get('key') !== key)
        return json(res, 403, { error: { code: 403, message: 'The request is missing a valid API key.', status: 'PERMISSION_DENIED' } })
      const text = body.input?.text ?? ''
      if (!text) return json(res, 400, { error: { code: 400, message: 'input is required', status: 'INVALID_ARGUMENT' } })
      if (text.includes('fail')) return json(res, 500, { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } })
      return json(res, 200, { audioContent: Buffer.from(`google:${text}`).toString('base64') })
    }
    if (req.method === 'POST' && path === '/v1/t2a_v2') {
      const body = JSON.parse(raw.toString() || '{}') as { text?: string; voice_setting?: unknown }
      received.push({ path, auth, body })
      if (auth !== `Bearer ${key}`) return json(res, 200, { data: null, base_resp: { status_code: 1004, status_msg: 'authentication failed' } })
      if (!query.get('GroupId')) return json(res, 200, { data: null, base_resp: { status_code: 2013, status_msg: 'invalid params' } })
      if ((body.text ?? '').includes('fail')) return json(res, 200, { data: null, base_resp: { status_code: 1000, status_msg: 'unknown error' } })
      return json(res, 200, {
        data: { audio: Buffer.from(`minimax:${body.text}`).toString('hex'), status: 2 },
        base_resp: { status_code: 0, status_msg: 'success' },
      })
    }
    // Web pages a persona's knowledge URL is read from (issue 16 item 2): an article, a redirect to a video site, a 404.
    if (req.method === 'GET' && path === '/pages/vulcoes.html')
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html><head><title>Vulcões</title><style>p{color:red}</style><script>var x = "não é conteúdo"</script></head>' +
            '<body><nav>Início | Contato</nav><h1>Vulcões</h1><p>O magma sobe pela chaminé do vulcão até a cratera.</p>' +
            '<p>Quando chega à superfície, o magma passa a se chamar lava &amp; forma rochas ígneas.</p></body></html>',
        )
    if (req.method === 'GET' && path === '/pages/to-video') return res.writeHead(302, { location: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }).end()
    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(path)
    if (req.method === 'POST' && tts) {
      const body = JSON.parse(raw.toString() || '{}') as { text?: string; voice_settings?: unknown }
      received.push({ path, auth, body })
      if (auth !== key) return json(res, 401, { detail: { status: 'invalid_api_key' } })
      if ((body.text ?? '').includes('fail')) return json(res, 500, { detail: { status: 'internal_error' } })
      return res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.from(`elevenlabs:${body.text}`))
    }

    if (req.method === 'POST' && path === '/v1/voices/add') {
      const text = raw.toString('latin1')
      const name = /name="name"\r\n\r\n([^\r]*)/.exec(text)?.[1] ?? ''
      received.push({ path, auth, body: { name, has_file: /name="files"; filename=/.test(text) } })
      if (auth !== key) return json(res, 401, { detail: { status: 'invalid_api_key' } })
      if (!name || !/filename=/.test(text)) return json(res, 422, { detail: { status: 'invalid_request' } })
      if (name.includes('fail')) return json(res, 500, { detail: { status: 'internal_error' } })
      return json(res, 200, { voice_id: `voice_${received.length}` })
    }
    if (req.method === 'POST' && path === '/v2/check') {
      const form = new URLSearchParams(raw.toString())
      const text = form.get('text')
      const language = form.get('language')
      received.push({ path, auth: form.get('apiKey'), body: Object.fromEntries(form) })
      if (text === null) return res.writeHead(400, { 'content-type': 'text/plain' }).end("Error: Missing 'text' or 'data' parameter")
      if (!language) return res.writeHead(400, { 'content-type': 'text/plain' }).end("Error: Missing 'language' parameter")
      if (form.get('apiKey') !== null && form.get('apiKey') !== key) return res.writeHead(403, { 'content-type': 'text/plain' }).end('Error: AuthException')
      if (text.includes('ltfail')) return res.writeHead(500, { 'content-type': 'text/plain' }).end('Error: Internal Error')
      return json(res, 200, {
        software: { name: 'LanguageTool', version: '6.4' },
        language: { code: language, name: language },
        matches: languageToolMatches(text),
      })
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Starts the server from the command line (`npx tsx tests/support/ai-providers.ts [port-ignored]`) for manual runs. */
if (process.argv[1]?.endsWith('ai-providers.ts')) {
  const key = process.env.AI_TEST_KEY ?? 'local-test-key'
  void startAiProviders(key).then(({ url }) => console.log(`AI providers at ${url}/v1 (key ${key}); D-ID and ElevenLabs at ${url}`))
}
