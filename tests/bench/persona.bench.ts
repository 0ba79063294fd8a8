import { strToU8, zipSync } from 'fflate'
import { localFetch as fetch } from '../support/local-fetch'
import type { BenchContext, Scenario } from './harness'

export const title = 'Persona knowledge: retrieval over 5 documents of 100 pages each, local engine (issue 16)'

/** Documents, pages (slides) each, and about how many characters a page holds. */
const DOCS = 5
const PAGES = 100
const PAGE_CHARS = 2000

// Deterministic text: words built from syllables by a fixed linear congruential sequence, one known fact a document.
const SYLLABLES = ['ba', 'ca', 'da', 'fe', 'ge', 'li', 'mo', 'nu', 'pa', 'ri', 'so', 'ta', 'vi', 'xo', 'ze', 'lu', 'ne', 'ro', 'si', 'tu']
function words(seed: number) {
  let x = seed
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648)
  return () => Array.from({ length: 2 + (next() % 3) }, () => SYLLABLES[next() % SYLLABLES.length]).join('')
}
const FACTS = [
  'O vulcão Kilimanjaro fica na Tanzânia.',
  'A capital da Mongólia é Ulan Bator.',
  'O ornitorrinco é um mamífero que bota ovos.',
  'A fotossíntese produz glicose e oxigênio.',
  'O rio Amazonas deságua no oceano Atlântico.',
]
const QUESTIONS = [
  'Onde fica o vulcão Kilimanjaro?',
  'Qual é a capital da Mongólia?',
  'O ornitorrinco bota ovos?',
  'O que a fotossíntese produz?',
  'Onde deságua o rio Amazonas?',
]

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** A real PPTX (slide XML in a zip, as extract.ts reads it) of PAGES slides of generated sentences; the fact on slide 50. */
function presentation(doc: number): Uint8Array {
  const word = words(doc + 1)
  const files: Record<string, Uint8Array> = { '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types/>') }
  for (let s = 1; s <= PAGES; s++) {
    const paragraphs: string[] = []
    let size = 0
    while (size < PAGE_CHARS) {
      const sentence = `${Array.from({ length: 12 }, word).join(' ')}.`
      paragraphs.push(sentence.charAt(0).toUpperCase() + sentence.slice(1))
      size += sentence.length + 1
    }
    if (s === 50) paragraphs.splice(3, 0, FACTS[doc])
    const body = paragraphs.map((p) => `<a:p><a:r><a:t>${xml(p)}</a:t></a:r></a:p>`).join('')
    files[`ppt/slides/slide${s}.xml`] = strToU8(
      `<?xml version="1.0"?><p:sld><p:cSld><p:spTree><p:sp><p:txBody>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    )
  }
  return zipSync(files)
}

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`HTTP ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const demo = ctx.base('demo.localhost')
  const { auth_token } = await json<{ auth_token: string }>(
    await fetch(`${demo}/api/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
    }),
  )
  const headers = { 'x-api-key': auth_token }
  const call = (path: string, init: RequestInit = {}) => fetch(`${demo}/api/personai/persona${path}`, { ...init, headers: { ...headers, ...init.headers } })
  const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
  const persona = await json<{ id: string }>(await post('', { name: `Bench ${Date.now()}`, synchronized_speech: true }), 201)
  await json(await post(`/${persona.id}/terms`, { accept: true }))
  const form = new FormData()
  for (let d = 0; d < DOCS; d++) form.append('files', new File([new Uint8Array(presentation(d))], `documento-${d + 1}.pptx`))
  await json(await call(`/${persona.id}/knowledge`, { method: 'POST', body: form }), 201)
  // The processing jobs run after the upload's answer: wait for them (at most 5 minutes).
  const until = Date.now() + 300_000
  let chunks = 0
  for (;;) {
    const { items } = await json<{ items: { status: string; chunk_count: number; reason: string | null }[] }>(await call(`/${persona.id}/knowledge`))
    if (items.some((i) => i.status === 'failed')) throw new Error(`knowledge failed: ${items.map((i) => i.reason).join(', ')}`)
    if (items.every((i) => i.status === 'processed')) {
      chunks = items.reduce((n, i) => n + i.chunk_count, 0)
      break
    }
    if (Date.now() > until) throw new Error('knowledge not processed in 5 minutes')
    await new Promise((r) => setTimeout(r, 500))
  }
  await json(await call(`/${persona.id}/save`, { method: 'POST' }))
  let cited = 0
  return [
    {
      name: `POST /ask, knowledge answer (${DOCS}×${PAGES} pages, ${chunks} chunks)`,
      concurrency: 2,
      requests: 60,
      run: async (i) => {
        const answer = await json<{ source: string; sources?: { quote: string }[] }>(
          await post(`/${persona.id}/ask`, { question: QUESTIONS[i % QUESTIONS.length] }),
        )
        if (answer.source !== 'knowledge') throw new Error(`answered from ${answer.source}`)
        if (answer.sources?.some((s) => s.quote === FACTS[i % FACTS.length])) cited++
      },
      after: async () => `${cited}/60 answers quote the document's fact`,
    },
  ]
}
