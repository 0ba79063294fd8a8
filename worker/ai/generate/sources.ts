import type { GenesisSource } from '#shared/schemas/lesson/genesis'
import type { Slide } from '#shared/schemas/lesson/slide'
import { getFile } from '../../db/files'
import { getLesson, getLessonModel } from '../../db/lesson'
import { apiError } from '../../lib/errors'
import { ExtractError, extractSections, type Section } from '../extract'
import { ProcessError, urlSections } from '../knowledge'
import { plainOf, sectionsOfText, unwrapLines, type SourceSection } from './text'

/**
 * The sources of a generation read into titled sections (typed text, an uploaded PDF, PPTX or TXT, a web address, an
 * existing lesson model or published lesson of the realm). A source
 * that cannot be read is refused before anything is debited, at its field: `video_source` (seed 001 §8 "video cannot
 * generate a lesson": a video file or a video site), `source_unreadable`, `source_private_address`.
 */

/** Addresses a generation never fetches: loopback, private, link-local and unique-local networks, and local names. */
export function isPrivateAddress(url: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '')
  } catch {
    return true
  }
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    (!host.includes('.') && !host.includes(':'))
  )
    return true
  const v4 = host.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      a >= 224
    )
  }
  if (host.includes(':')) return host === '::' || host === '::1' || /^f[cd]/.test(host) || host.startsWith('fe80') || host.startsWith('::ffff:')
  return false
}

const FILE_TYPES: Record<string, 'pdf' | 'txt' | 'pptx'> = { pdf: 'pdf', txt: 'txt', pptx: 'pptx' }

/** Sections of a PDF page or a slide: titled by their first line when it reads as a heading. */
const titled = (sections: Section[], label: string, unwrap = false): SourceSection[] =>
  sections.flatMap((s) => sectionsOfText(unwrap ? unwrapLines(s.text) : s.text, `${label} ${s.at}`))

/** Rich text as lines: one per paragraph, list item or heading (so headings still cut sections). */
const linesOf = (html: string) =>
  html
    .split(/<\/(?:p|li|h[1-6]|div|tr)>|<br\s*\/?>/)
    .map(plainOf)
    .filter(Boolean)
    .join('\n')

/** The text of a slide: its visible text boxes (first line first: the title), then its narration. */
const slideText = (s: Slide) =>
  [...s.objects.flatMap((o) => (o.kind === 'text' && !o.hidden ? [linesOf(o.html)] : [])), s.narration.trim()].filter(Boolean).join('\n')

/**
 * A lesson's text as sections: its summary, class plan and handout (cut at their headings, titled by the lesson's
 * title), then one section per slide (its title line, bullets and narration).
 */
export function lessonSections(
  lesson: { title: string; summary: string; class_plan: { html: string }; handout: string; slides: Slide[] },
  labels: { slide: string },
): SourceSection[] {
  return [
    ...[lesson.summary, lesson.class_plan.html, lesson.handout].flatMap((html) => sectionsOfText(linesOf(html), lesson.title)),
    ...lesson.slides.flatMap((s, i) => sectionsOfText(slideText(s), `${labels.slide} ${i + 1}`)),
  ]
}

/** Which lessons the caller may read: models with `lesson_model_get`/`_edit`, published lessons with `lesson_lesson_get`/`_edit`. */
export const lessonReadable = (permissions: ReadonlySet<string>) => ({
  model: permissions.has('lesson_model_get') || permissions.has('lesson_model_edit'),
  lesson: permissions.has('lesson_lesson_get') || permissions.has('lesson_lesson_edit'),
})

/** Reads every source, in order, into sections; `urlAllowed` lets the tests reach their local page server. */
export async function readSources(
  env: Pick<Env, 'DB' | 'FILES'>,
  realm: string,
  sources: GenesisSource[],
  labels: { text: string; page: string; slide: string },
  readable: { model: boolean; lesson: boolean },
  urlAllowed: (url: string) => boolean = (u) => !isPrivateAddress(u),
): Promise<SourceSection[]> {
  const out: SourceSection[] = []
  for (const [i, src] of sources.entries()) {
    const field = `sources.${i}`
    if (src.kind === 'text') {
      out.push(...sectionsOfText(src.text, labels.text))
      continue
    }
    if (src.kind === 'lesson') {
      if (!readable[src.from])
        throw apiError(
          403,
          'forbidden',
          'genesis.error.lesson_forbidden',
          `${field}.lesson_id`,
          src.from === 'model' ? 'lesson_model_get' : 'lesson_lesson_get',
        )
      const lesson = src.from === 'model' ? await getLessonModel(env.DB, realm, src.lesson_id) : await getLesson(env.DB, realm, src.lesson_id)
      if (!lesson) throw apiError(404, 'not_found', 'genesis.error.lesson_not_found', `${field}.lesson_id`, src.lesson_id)
      out.push(...lessonSections(lesson, labels))
      continue
    }
    if (src.kind === 'file') {
      const row = await getFile(env.DB, realm, src.file_id)
      if (!row) throw apiError(404, 'not_found', 'genesis.error.file_not_found', `${field}.file_id`, src.file_id)
      if (row.kind === 'video' || row.kind === 'audio') throw apiError(422, 'video_source', 'genesis.error.video_source', `${field}.file_id`, src.file_id)
      const type = FILE_TYPES[row.ext]
      if (!type) throw apiError(422, 'source_unreadable', 'genesis.error.source_type', `${field}.file_id`, row.ext)
      const object = await env.FILES.get(row.key)
      if (!object) throw apiError(404, 'not_found', 'genesis.error.file_not_found', `${field}.file_id`, src.file_id)
      try {
        // A PDF's lines are its layout's, not sentences: joined back into paragraphs.
        out.push(...titled(await extractSections(type, new Uint8Array(await object.arrayBuffer())), labels.page, type === 'pdf'))
      } catch (err) {
        // A presentation without any text: seed 001 §8 "presentation slides missing content".
        if (err instanceof ExtractError && type === 'pptx' && err.reason === 'empty')
          throw apiError(422, 'slides_missing_content', 'validation.lesson.slides_missing_content', `${field}.file_id`, src.file_id)
        if (err instanceof ExtractError) throw apiError(422, 'source_unreadable', `genesis.error.source_${err.reason}`, `${field}.file_id`, src.file_id)
        throw err
      }
      continue
    }
    if (!urlAllowed(src.url)) throw apiError(422, 'source_private_address', 'genesis.error.private_address', `${field}.url`, src.url)
    try {
      out.push(...titled(await urlSections(src.url, (u) => !urlAllowed(u)), labels.page))
    } catch (err) {
      if (err instanceof ProcessError && err.reason === 'restricted_video_site')
        throw apiError(422, 'video_source', 'genesis.error.video_source', `${field}.url`, src.url)
      if (err instanceof ProcessError || err instanceof ExtractError)
        throw apiError(422, 'source_unreadable', 'genesis.error.source_unreadable', `${field}.url`, src.url)
      throw err
    }
  }
  return out
}
