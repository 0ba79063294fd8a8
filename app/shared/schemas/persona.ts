import * as v from 'valibot'
import { Voice, type ImageCheck } from './ai'
import { defineEntity } from './entity'
import { Id } from './tms/common'

/**
 * Personas (seed 002 §3 "Persona", §4, §5 "Persona", §9; issue 16 item 2): identification, voice, messages, terms
 * agreement; their dialogs and knowledge items, which are staged (§4: draft until the persona's items are saved,
 * to_update, to_delete) and applied by one save.
 */

export const PERSONA_LANGUAGES = ['pt-BR', 'en-US', 'es-ES'] as const

/** How a persona speaks, derived from its flags (seed 002 §3 "speech types derived from the flags"). */
export const SPEECH_TYPES = ['chromakey', 'sync', 'animation'] as const
export type SpeechType = (typeof SPEECH_TYPES)[number]

/**
 * The speech type of the flags: with synchronized speech the lips follow the voice live — over the humanized
 * (chromakey-cut) image when humanized (`chromakey`), over the plain image otherwise (`sync`); without it the
 * persona plays generated animations (`animation`), so its text answers need one.
 */
export function speechTypeOf(flags: { synchronized_speech: boolean; humanized: boolean }): SpeechType {
  if (!flags.synchronized_speech) return 'animation'
  return flags.humanized ? 'chromakey' : 'sync'
}

const text = (max: number) => v.pipe(v.string('validation.required'), v.trim(), v.maxLength(max, 'validation.max_length'))
const required = (max: number) =>
  v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(max, 'validation.max_length'))

/** Greeting, unknown-answer and call-helper messages (seed 002 §3 "Messages"). */
export const PersonaMessages = v.object({
  greeting: v.optional(text(1000), ''),
  unknown_answer: v.optional(text(1000), ''),
  call_helper: v.optional(text(1000), ''),
})
export type PersonaMessages = v.InferOutput<typeof PersonaMessages>

const Tags = v.pipe(
  v.array(
    v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(40, 'validation.max_length')),
    'validation.array',
  ),
  v.maxLength(20, 'validation.max_items'),
  v.transform((tags) => [...new Set(tags)]),
)

/** The fields a persona's identification, voice and messages steps write. */
const personaFields = {
  name: required(120),
  bio: v.optional(text(2000), ''),
  tags: v.optional(Tags, []),
  /** An uploaded image of the realm (POST /mas/file); `''` removes it. */
  image_file_id: v.optional(v.union([v.literal(''), Id], 'validation.id'), ''),
  language: v.optional(v.picklist(PERSONA_LANGUAGES, 'validation.picklist'), 'pt-BR'),
  is_public: v.optional(v.boolean('validation.boolean'), false),
  fluid_conversation: v.optional(v.boolean('validation.boolean'), false),
  synchronized_speech: v.optional(v.boolean('validation.boolean'), false),
  humanized: v.optional(v.boolean('validation.boolean'), false),
  voice: v.optional(v.nullable(Voice), null),
  messages: v.optional(PersonaMessages, {}),
}

export const PersonaCreate = v.object(personaFields)
export type PersonaCreate = v.InferOutput<typeof PersonaCreate>
/** A whole-persona update (the editor sends every step's fields). */
export const PersonaUpdate = v.object(personaFields)

/** POST /personai/persona/{id}/terms: the terms agreement (required before the persona is used). */
export const PersonaTerms = v.object({ accept: v.literal(true, 'validation.persona.terms_required') })

/** POST /personai/persona/{id}/ask: a question to the persona (the editor's chat test). */
export const PersonaAsk = v.object({
  question: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(500, 'validation.max_length')),
})

export type Persona = {
  id: string
  realm: string
  name: string
  bio: string
  tags: string[]
  image_file_id: string
  image_url: string
  /** The server's check of the image (ImageCheck of schemas/ai), `{}` without an image. */
  image_check: ImageCheck | { status?: undefined }
  language: (typeof PERSONA_LANGUAGES)[number]
  is_public: boolean
  fluid_conversation: boolean
  synchronized_speech: boolean
  humanized: boolean
  speech_type: SpeechType
  voice: Voice | null
  messages: PersonaMessages
  terms_accepted_at: string | null
  terms_accepted_by: string | null
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

export const personaEntity = defineEntity<Persona>({
  name: 'persona',
  table: 'persona',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    bio: { type: 'text' },
    tags: { type: 'json', list: true },
    image_file_id: { type: 'text' },
    image_url: { type: 'text', list: true },
    image_check: { type: 'json' },
    language: { type: 'text', sort: true, list: true, filter: 'eq' },
    is_public: { type: 'bool', list: true, filter: 'eq' },
    fluid_conversation: { type: 'bool' },
    synchronized_speech: { type: 'bool' },
    humanized: { type: 'bool' },
    speech_type: { type: 'text', list: true, filter: 'eq' },
    voice: { type: 'json' },
    messages: { type: 'json' },
    terms_accepted_at: { type: 'text', list: true, nullable: true },
    terms_accepted_by: { type: 'text', nullable: true },
    created_at: { type: 'text', sort: true, list: true },
    created_by: { type: 'text' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: 'name',
})

/** Stages of a persona's items (seed 002 §3, §4): `none` saved; `draft` new until save; `to_update`; `to_delete`. */
export const ITEM_STAGES = ['none', 'draft', 'to_update', 'to_delete'] as const
export type ItemStage = (typeof ITEM_STAGES)[number]

// ---------------------------------------------------------------------------------------------------------------
// Dialogs

export const DIALOG_TYPES = ['unknown', 'welcome', 'call_helper', 'conversation'] as const
export type DialogType = (typeof DIALOG_TYPES)[number]

/** Answer types (seed 002 §3): those carrying a url, text, or options. */
export const ANSWER_TYPES = ['pdf', 'link', 'pptx', 'text', 'img', 'video', 'audio', 'youtube', 'options', 'document', 'presentation'] as const
export type AnswerType = (typeof ANSWER_TYPES)[number]
/** Answer types that point at a file or page: they need a url. */
export const URL_ANSWER_TYPES = ['pdf', 'link', 'pptx', 'img', 'video', 'audio', 'youtube', 'document', 'presentation'] as const satisfies readonly AnswerType[]

/** Shortest question (seed 002 §5, §9). */
export const QUESTION_MIN = 3

const Url = v.pipe(v.string('validation.required'), v.trim(), v.maxLength(2000, 'validation.max_length'))

/** An option of an `options` answer: its text and the dialog it leads to; `deleted` marks one removed in the editor. */
export const DialogOption = v.object({
  text: v.optional(text(300), ''),
  dialog_id: v.optional(v.nullable(Id), null),
  deleted: v.optional(v.boolean('validation.boolean'), false),
})
export type DialogOption = v.InferOutput<typeof DialogOption>

/** A generated talking animation for a text answer: a provider's video, or the browser's rendering of the persona's image. */
export const AnswerAnimation = v.variant('provider', [
  v.object({ provider: v.literal('did'), url: v.pipe(Url, v.url('validation.url')) }),
  v.object({ provider: v.literal('browser') }),
])

/**
 * An answer; its type decides what it needs (checked with the persona: see dialogProblems): a url for the url
 * types, text (and an animation when the persona's speech type is `animation`) for `text`, options for `options`.
 */
export const DialogAnswer = v.pipe(
  v.object({
    type: v.picklist(ANSWER_TYPES, 'validation.persona.answer_type'),
    url: v.optional(Url, ''),
    text: v.optional(text(4000), ''),
    options: v.optional(v.pipe(v.array(DialogOption), v.maxLength(20, 'validation.max_items')), []),
    animation: v.optional(v.nullable(AnswerAnimation), null),
  }),
  // Changing an answer's type discards its options (seed 002 §4; the console confirms first): only `options` keeps them.
  v.transform((a) => (a.type === 'options' ? a : { ...a, options: [] })),
)
export type DialogAnswer = v.InferOutput<typeof DialogAnswer>

export const DialogInput = v.object({
  type: v.picklist(DIALOG_TYPES, 'validation.persona.dialog_type'),
  name: v.optional(text(120), ''),
  /** Ways of asking (conversation dialogs), each at least QUESTION_MIN characters. */
  questions: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string('validation.required'),
          v.trim(),
          v.minLength(QUESTION_MIN, 'validation.persona.question_min'),
          v.maxLength(500, 'validation.max_length'),
        ),
      ),
      v.maxLength(50, 'validation.max_items'),
    ),
    [],
  ),
  answers: v.optional(v.pipe(v.array(DialogAnswer), v.maxLength(20, 'validation.max_items')), []),
})
export type DialogInput = v.InferOutput<typeof DialogInput>

/** A rule a dialog breaks that only the persona's other dialogs can tell (shown on the dialog list). */
export interface DialogProblem {
  field: string
  cause: 'unreachable' | 'option_dialog' | 'option_text' | 'options_required' | 'url_required' | 'text_required' | 'animation_required'
  value: unknown
  message: string
}

/** A dialog as the editor sees it: its pending content when it has one, its stage, and its problems. */
export interface PersonaDialog extends DialogInput {
  id: string
  persona_id: string
  stage: ItemStage
  position: number
  problems: DialogProblem[]
  created_at: string
  updated_at: string
  updated_by: string
}

const conversationQuestions = (d: Pick<DialogInput, 'type' | 'questions'>) => d.type === 'conversation' && d.questions.length > 0

/**
 * Every rule of seed 002 §5 a dialog must meet among its persona's dialogs (`dialogs`: the ones the save would keep,
 * i.e. not to_delete), for a persona of `speechType`:
 * - url answers need a url; text answers need text, and an animation when the speech type is `animation`;
 * - option answers need at least one non-deleted option; each non-deleted option needs its text (the statement) and
 *   a dialog of the persona it leads to;
 * - a conversation dialog is unreachable when nothing leads to it: it has no questions to be asked by, and no
 *   option of another dialog refers to it.
 */
export function dialogProblems(dialog: { id: string } & DialogInput, dialogs: ({ id: string } & DialogInput)[], speechType: SpeechType): DialogProblem[] {
  const out: DialogProblem[] = []
  const ids = new Set(dialogs.map((d) => d.id))
  dialog.answers.forEach((a, i) => {
    const at = `answers.${i}`
    if ((URL_ANSWER_TYPES as readonly string[]).includes(a.type) && !a.url)
      out.push({ field: `${at}.url`, cause: 'url_required', value: a.type, message: 'validation.persona.url_required' })
    if (a.type === 'text') {
      if (!a.text) out.push({ field: `${at}.text`, cause: 'text_required', value: null, message: 'validation.persona.text_required' })
      if (speechType === 'animation' && !a.animation)
        out.push({ field: `${at}.animation`, cause: 'animation_required', value: speechType, message: 'validation.persona.animation_required' })
    }
    if (a.type === 'options') {
      const live = a.options.map((o, j) => ({ o, j })).filter(({ o }) => !o.deleted)
      if (!live.length) out.push({ field: `${at}.options`, cause: 'options_required', value: 0, message: 'validation.persona.options_required' })
      for (const { o, j } of live) {
        if (!o.text) out.push({ field: `${at}.options.${j}.text`, cause: 'option_text', value: null, message: 'validation.persona.option_text' })
        if (!o.dialog_id || !ids.has(o.dialog_id) || o.dialog_id === dialog.id)
          out.push({ field: `${at}.options.${j}.dialog_id`, cause: 'option_dialog', value: o.dialog_id, message: 'validation.persona.option_dialog' })
      }
    }
  })
  if (dialog.type === 'conversation' && !conversationQuestions(dialog)) {
    const referred = dialogs.some(
      (d) => d.id !== dialog.id && d.answers.some((a) => a.type === 'options' && a.options.some((o) => !o.deleted && o.dialog_id === dialog.id)),
    )
    if (!referred) out.push({ field: 'id', cause: 'unreachable', value: dialog.id, message: 'validation.persona.unreachable' })
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// Knowledge

export const KNOWLEDGE_TYPES = ['pdf', 'url', 'txt', 'pptx', 'lesson'] as const
export type KnowledgeType = (typeof KNOWLEDGE_TYPES)[number]
export const KNOWLEDGE_FILE_TYPES = ['pdf', 'txt', 'pptx'] as const
export type KnowledgeFileType = (typeof KNOWLEDGE_FILE_TYPES)[number]
export const KNOWLEDGE_STATUSES = ['pending', 'processed', 'failed'] as const
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number]

/** Most knowledge items a persona holds, lessons not counted (seed 002 §5, §9). */
export const KNOWLEDGE_MAX = 5
/** Largest knowledge file accepted (bytes): the Worker reads it whole to extract its text, in a 128 MB isolate (5 files a request at most). */
export const KNOWLEDGE_FILE_MAX = 10 * 1024 * 1024

/** The content types a knowledge file may arrive with, by type (`application/octet-stream`: the extension decides). */
export const KNOWLEDGE_CONTENT_TYPES: Record<KnowledgeFileType, readonly string[]> = {
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
}

/**
 * The five restricted video sites (seed 002 §5 "video knowledge from restricted video domains (five video sites) is
 * rejected"; the seed does not name them): YouTube, Vimeo, Dailymotion, TikTok and Twitch, with their short and
 * mobile hosts. A knowledge URL on any of them (or a subdomain) is refused: a video page has no text to learn from.
 */
export const RESTRICTED_VIDEO_HOSTS = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'dailymotion.com',
  'dai.ly',
  'tiktok.com',
  'twitch.tv',
] as const

/** True when the URL's host is one of the restricted video sites or under one. */
export function isRestrictedVideoUrl(url: string): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    return false
  }
  return RESTRICTED_VIDEO_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))
}

/** POST /personai/persona/{id}/knowledge/url: a web page to learn from (http or https). */
export const KnowledgeUrlInput = v.object({
  url: v.pipe(
    v.string('validation.required'),
    v.trim(),
    v.maxLength(2000, 'validation.max_length'),
    v.url('validation.url'),
    v.regex(/^https?:\/\//i, 'validation.url'),
    v.check((u) => !isRestrictedVideoUrl(u), 'validation.persona.knowledge_video_site'),
  ),
})

/** POST /personai/persona/{id}/knowledge/lesson: a lesson as knowledge (a reference; not counted in the limit). */
export const KnowledgeLessonInput = v.object({
  lesson_id: Id,
  title: required(200),
})

/** PUT /personai/persona/{id}/knowledge/{itemId}: the item's shown title (a saved item becomes to_update). */
export const KnowledgeUpdate = v.object({ title: required(200) })

export interface KnowledgeItem {
  id: string
  persona_id: string
  type: KnowledgeType
  /** The file's name, the URL, or the lesson's id. */
  source: string
  title: string
  size: number
  status: KnowledgeStatus
  /** Why processing failed (`unreadable`, `empty`, `too_large`, `fetch_failed`, …), when it failed. */
  reason: string | null
  chunk_count: number
  stage: ItemStage
  created_at: string
  created_by: string
  processed_at: string | null
}

/** A knowledge upload's answer: the items created, and the files refused as duplicates (a warning, not an error). */
export interface KnowledgeUploadResult {
  items: KnowledgeItem[]
  warnings: { field: string; cause: 'duplicate'; value: string; message: string }[]
}
