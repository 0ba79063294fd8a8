import * as v from 'valibot'
import type { AiSettings } from '../db/ai'
import { TOKENS_PER_CREDIT } from './index'
import { IMAGE_TOKENS } from './prompt'
import { AiError, type ImageInput } from './types'
import { chooseVisionEngine } from './vision'
import { askMetered } from './vision-metered'

/** What a vision provider answers about one photographed essay page: the text written on it ('' when none). */
export const PageText = v.object({ text: v.pipe(v.string(), v.maxLength(60_000)) })

const SHAPE = '{"text": "<the text written on the page, line by line, \'\' when there is none>"}'
const LANGUAGES: Record<string, string> = {
  'pt-BR': 'Brazilian Portuguese',
  'pt-PT': 'European Portuguese',
  'en-US': 'English',
  'es-ES': 'Spanish',
  'fr-FR': 'French',
  'it-IT': 'Italian',
  'de-DE': 'German',
}
const question = (language: string) =>
  `This is a photo of one handwritten (or printed) page of a student's essay${LANGUAGES[language] ? ` written in ${LANGUAGES[language]}` : ''}. ` +
  'Transcribe the text exactly as written, keeping its line breaks and paragraphs; do not correct spelling, grammar or ' +
  'punctuation, do not add anything. Leave out drawings and page decorations. Answer an empty text when the page has no text.'

/** Answer tokens asked for: a dense page holds about 500 words. */
const MAX_TOKENS = 2000
/** Credits reserved per page before the provider answers: both attempts of the image, the prompt and the answer. */
const RESERVED = Math.max(1, Math.ceil((2 * (IMAGE_TOKENS + Math.ceil((question('pt-BR').length + SHAPE.length) / 4) + MAX_TOKENS)) / TOKENS_PER_CREDIT))

/** Whether the realm's vision provider can transcribe (otherwise the student's device does, with its own OCR). */
export const canTranscribe = (env: Env, settings: AiSettings) => chooseVisionEngine(env, settings).engine.kind !== 'none'

/**
 * The essay's text from its photographed pages, in their order, through the realm's vision provider (issue 17): one
 * metered question per page (`askMetered`), the pages' texts joined by a blank line. Throws the layer's AiError
 * (`ai_not_configured` without a provider, `ai_cap_reached`, provider failures).
 */
export async function transcribePages(env: Env, settings: AiSettings, pages: ImageInput[], language: string): Promise<string> {
  const { engine, problem } = chooseVisionEngine(env, settings)
  if (engine.kind === 'none') throw new AiError('ai_not_configured', 'ai.error.not_configured', problem)
  const texts: string[] = []
  for (const image of pages) {
    const seen = await askMetered(env, settings, engine, RESERVED, {
      schema: PageText,
      shape: SHAPE,
      question: question(language),
      image,
      maxTokens: MAX_TOKENS,
    })
    const text = seen.data.text.trim()
    if (text) texts.push(text)
  }
  return texts.join('\n\n')
}
