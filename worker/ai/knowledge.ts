import { Parser } from 'htmlparser2'
import { isRestrictedVideoUrl } from '#shared/schemas/persona'
import { runBatch } from '../db/batch'
import { readCapped } from '../lib/stream'
import { claimKnowledge, failedStatements, getKnowledge, processedStatements } from '../db/personas'
import { ExtractError, chunkSections, extractSections, type Section } from './extract'

/**
 * Knowledge processing (issue 16 item 2; seed 002 §4 "pending then processed or failed"): a job per item, run in the
 * background of the request that created it (`ctx.waitUntil`, see `scheduleKnowledge`). The item's text is extracted
 * (worker/ai/extract.ts for files; the page's text for a URL), cut into chunks and stored for retrieval in one batch
 * with the item's `processed` status; any failure stores `failed` with its reason. An attempt that died (the Worker
 * stopped) leaves the item pending with a stale start: the knowledge list runs it again (`STALE_MS`).
 */

/** An attempt older than this is taken to have died; the item is processed again. */
export const STALE_MS = 2 * 60 * 1000
/** Longest wait for a knowledge URL, and its largest body. */
const FETCH_TIMEOUT_MS = 15_000
const MAX_PAGE_BYTES = 5 * 1024 * 1024
const MAX_REDIRECTS = 5

/** Why an item failed (stored as its `reason`). */
export type KnowledgeFailure = 'unreadable' | 'empty' | 'too_large' | 'fetch_failed' | 'unsupported_content' | 'restricted_video_site' | 'missing_file'

/** Why a knowledge source could not be read. */
export class ProcessError extends Error {
  constructor(readonly reason: KnowledgeFailure) {
    super(reason)
  }
}

/**
 * Processes one pending item to its end (processed or failed). Never throws: the job's outcome is the item's row.
 * `now` is the attempt's clock (tests pass one to take over a stale attempt deterministically).
 */
export async function processKnowledge(env: Pick<Env, 'DB' | 'FILES'>, realm: string, personaId: string, itemId: string, now = new Date()): Promise<void> {
  const db = env.DB
  const at = now.toISOString()
  if (!(await claimKnowledge(db, realm, itemId, at, new Date(now.getTime() - STALE_MS).toISOString()))) return
  const item = await getKnowledge(db, realm, personaId, itemId)
  if (!item) return
  try {
    const sections = await sectionsOf(env, item)
    const chunks = chunkSections(sections)
    if (!chunks.length) throw new ProcessError('empty')
    await runBatch(db, processedStatements(db, realm, personaId, itemId, chunks, new Date().toISOString()))
  } catch (err) {
    const reason: KnowledgeFailure = err instanceof ProcessError || err instanceof ExtractError ? err.reason : 'unreadable'
    if (!(err instanceof ProcessError || err instanceof ExtractError)) console.warn('knowledge processing failed', itemId, err)
    await runBatch(db, failedStatements(db, realm, itemId, reason, new Date().toISOString()))
  }
}

/** Runs the items' jobs after the answer is sent (the Worker keeps running until they end). */
export function scheduleKnowledge(
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  env: Pick<Env, 'DB' | 'FILES'>,
  realm: string,
  personaId: string,
  ids: string[],
): void {
  if (!ids.length) return
  ctx.waitUntil(
    (async () => {
      // One after another: each holds a whole document in memory.
      for (const id of ids) await processKnowledge(env, realm, personaId, id)
    })(),
  )
}

async function sectionsOf(env: Pick<Env, 'FILES'>, item: { type: string; source: string; file_key: string }): Promise<Section[]> {
  if (item.type === 'pdf' || item.type === 'pptx' || item.type === 'txt') {
    const object = await env.FILES.get(item.file_key)
    if (!object) throw new ProcessError('missing_file')
    return extractSections(item.type, new Uint8Array(await object.arrayBuffer()))
  }
  if (item.type === 'url') return urlSections(item.source)
  throw new ProcessError('unsupported_content')
}

/**
 * A web page's text (HTML without its scripts, styles and navigation), a plain text, or a PDF the URL serves. `refuse`
 * is asked about the address and every redirect's (content generation refuses private addresses); it fails
 * `fetch_failed`.
 */
export async function urlSections(url: string, refuse: (url: string) => boolean = () => false): Promise<Section[]> {
  if (isRestrictedVideoUrl(url)) throw new ProcessError('restricted_video_site')
  if (refuse(url)) throw new ProcessError('fetch_failed')
  let res: Response
  let at = url
  // Redirects followed here, each checked: a link that leads to a video site is the video site.
  for (let hop = 0; ; hop++) {
    try {
      res = await fetch(at, {
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        headers: { accept: 'text/html, text/plain, application/pdf' },
      })
    } catch {
      throw new ProcessError('fetch_failed')
    }
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null
    if (!location) break
    if (hop === MAX_REDIRECTS) throw new ProcessError('fetch_failed')
    at = new URL(location, at).toString()
    if (!/^https?:/i.test(at)) throw new ProcessError('fetch_failed')
    if (isRestrictedVideoUrl(at)) throw new ProcessError('restricted_video_site')
    if (refuse(at)) throw new ProcessError('fetch_failed')
  }
  if (!res.ok) throw new ProcessError('fetch_failed')
  const bytes = await readPage(res, MAX_PAGE_BYTES)
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'application/pdf') return extractSections('pdf', bytes)
  if (type === 'text/plain') return extractSections('txt', bytes)
  if (type === 'text/html' || type === 'application/xhtml+xml')
    return extractSections('txt', new TextEncoder().encode(htmlText(new TextDecoder().decode(bytes))))
  throw new ProcessError('unsupported_content')
}

/** The page's bytes, refused past `max` (its declared length first, then as it arrives). */
async function readPage(res: Response, max: number): Promise<Uint8Array> {
  if (Number(res.headers.get('content-length') ?? 0) > max) throw new ProcessError('too_large')
  return readCapped(res.body, max, () => new ProcessError('too_large'))
}

/** Elements whose text is not the page's content. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'nav', 'header', 'footer', 'aside', 'form', 'button', 'select', 'iframe'])
/** Elements that end a line of text. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'section',
  'article',
  'blockquote',
  'pre',
  'dt',
  'dd',
  'title',
  'td',
  'th',
])

/** The readable text of an HTML page: its title and content, one block a line, entities decoded. */
export function htmlText(html: string): string {
  let skipping = 0
  let text = ''
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skipping++
        else if (BLOCKS.has(name)) text += '\n'
      },
      ontext(t) {
        if (!skipping) text += t
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1)
        else if (BLOCKS.has(name)) text += '\n'
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  )
  parser.write(html)
  parser.end()
  return text
}
