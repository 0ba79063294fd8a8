import * as v from 'valibot'
import { defineEntity } from '../entity'
import { CategoryLinks, Description, Id, Instant, Tags } from '../tms/common'
import { PUBLICATION_STATUSES, PUBLISHED_FIELDS, PublicationInput, STAMPS_FIELDS, publicationDateProblems, type Published, type Stamps } from '../publication'
import { CLASS_PLAN_MINUTES, LESSON_LANGUAGES } from './content'
import { SlideDeck, slideHasContent, type Slide } from './slide'

/**
 * A lesson (seed 001 §3 "Lesson and lesson content", §5 "Lessons and content", issue 18): the model a teacher edits
 * (`lesson_model`) and the published copy students receive (`lesson`) share these content fields.
 */
const RichText = (max = 100_000) => v.optional(v.pipe(v.string(), v.maxLength(max, 'validation.max_length')), '')
const unique = (xs: string[]) => new Set(xs).size === xs.length

/** Class plan: rich text and its duration in minutes (seed 001 §9: 15 to 180). */
export const ClassPlan = v.object({
  html: RichText(),
  duration: v.pipe(
    v.number('validation.number'),
    v.integer('validation.integer'),
    v.minValue(CLASS_PLAN_MINUTES.min, 'validation.lesson.class_plan_duration'),
    v.maxValue(CLASS_PLAN_MINUTES.max, 'validation.lesson.class_plan_duration'),
  ),
})
export type ClassPlan = v.InferOutput<typeof ClassPlan>

/** A question-answer pair (seed 001 §9: persona question at least 3 characters; the answer too). */
export const QuestionPair = v.object({
  question: v.pipe(v.string('validation.required'), v.trim(), v.minLength(3, 'validation.lesson.pair_min'), v.maxLength(1000, 'validation.max_length')),
  answer: v.pipe(v.string('validation.required'), v.trim(), v.minLength(3, 'validation.lesson.pair_min'), v.maxLength(4000, 'validation.max_length')),
})
export type QuestionPair = v.InferOutput<typeof QuestionPair>

const IdList = (max: number) => v.optional(v.pipe(v.array(Id), v.maxLength(max, 'validation.max_items'), v.check(unique, 'validation.lesson.duplicate')), [])

export const DEFAULT_CLASS_PLAN: ClassPlan = { html: '', duration: 50 }

/** The content of a lesson, as the editor sends it (the model's body, and the published lesson's content). */
export const LessonInput = v.object({
  title: v.pipe(v.string('validation.required'), v.trim(), v.minLength(3, 'validation.tms.title_min'), v.maxLength(200, 'validation.max_length')),
  description: v.optional(Description(2000), ''),
  tags: Tags,
  categories: CategoryLinks,
  language: v.optional(v.picklist(LESSON_LANGUAGES, 'validation.picklist'), 'pt-BR'),
  /** Assets of the realm (`/asset`) the lesson uses. */
  assets: IdList(50),
  /** Task models whose published tasks are the lesson's tasks. */
  tasks: IdList(50),
  summary: RichText(),
  class_plan: v.optional(ClassPlan, DEFAULT_CLASS_PLAN),
  handout: RichText(),
  /** The presentation; on save empty slides are removed and at least one must have content (seed 001 §5). */
  slides: v.optional(SlideDeck, []),
  /** The lesson's video: an asset id. */
  video: v.optional(v.nullable(Id), null),
  /** The persona or assistant narrating (its overlay per slide is each slide's `overlay`); fixed once a video exists. */
  persona_id: v.optional(v.nullable(Id), null),
  question_pairs: v.optional(v.pipe(v.array(QuestionPair), v.maxLength(200, 'validation.max_items')), []),
})
export type LessonInput = v.InferOutput<typeof LessonInput>
export type LessonDraft = v.InferInput<typeof LessonInput>

/** The content fields, in the order the editor, the copy at publication and exports use. */
export const LESSON_CONTENT_FIELDS = [
  'title',
  'description',
  'tags',
  'categories',
  'language',
  'assets',
  'tasks',
  'summary',
  'class_plan',
  'handout',
  'slides',
  'video',
  'persona_id',
  'question_pairs',
] as const satisfies readonly (keyof LessonInput)[]

/**
 * The presentation as it is stored (seed 001 §5): slides without content dropped. Answers the kept slides, and
 * whether the deck was given slides none of which had content ("presentation slides missing content", §8).
 */
export function storedDeck(slides: Slide[]): { slides: Slide[]; missingContent: boolean } {
  const kept = slides.filter(slideHasContent)
  return { slides: kept, missingContent: slides.length > 0 && kept.length === 0 }
}

/** Problems of the lesson rules that need no other rows: slides with content, a persona for slides with an overlay. */
export function lessonProblems(l: LessonInput): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = []
  if (storedDeck(l.slides).missingContent) out.push({ field: 'slides', message: 'validation.lesson.slides_missing_content' })
  if (!l.persona_id && l.slides.some((s) => s.overlay !== 'none')) out.push({ field: 'persona_id', message: 'validation.lesson.persona_required' })
  return out
}

/** A lesson model as the API answers it. */
export type LessonModel = LessonInput &
  Stamps & {
    type: 'lesson_model'
    slide_count: number
    /** Lessons published from this model (list and get answers). */
    published_count?: number
  }

const contentFields = {
  title: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
  description: { type: 'text', search: true },
  tags: { type: 'json', list: true },
  categories: { type: 'json', list: true },
  language: { type: 'text', sort: true, list: true, filter: 'eq' },
  assets: { type: 'json' },
  tasks: { type: 'json' },
  summary: { type: 'text' },
  class_plan: { type: 'json' },
  handout: { type: 'text' },
  slides: { type: 'json' },
  video: { type: 'text' },
  persona_id: { type: 'text' },
  question_pairs: { type: 'json' },
  slide_count: { type: 'int', sort: true, list: true },
  ...STAMPS_FIELDS,
} as const

export const lessonModelEntity = defineEntity<LessonModel>({
  name: 'lesson_model',
  table: 'lesson_model',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    type: { type: 'text', list: true },
    ...contentFields,
    published_count: { type: 'int' },
  },
  defaultOrder: '-updated_at',
})

/** Date status of a published lesson: scheduled before its publication, expired after its end (when it has one). */
export const LESSON_STATUSES = PUBLICATION_STATUSES
export type LessonStatus = (typeof LESSON_STATUSES)[number]

/** A published lesson: a copy of the model's content at publication, with its targets and dates. */
export type Lesson = LessonInput & Published & { slide_count: number }

export const lessonEntity = defineEntity<Lesson>({
  name: 'lesson_lesson',
  table: 'lesson_lesson_view',
  key: 'id',
  realmColumn: 'realm',
  fields: { ...PUBLISHED_FIELDS, ...contentFields },
  defaultOrder: '-publish_at',
})

/** Publication of a lesson model (like a task's, seed 001 §3 "Publication"): to rooms, room members or room groups. */
export const LessonPublishInput = PublicationInput
export type LessonPublishInput = v.InferOutput<typeof LessonPublishInput>

/**
 * A save that changes the persona of a lesson with generated narration or videos must say `discard_media: true`
 * (seed 001 §4: switching loses them; the editor asks first). Ignored when the persona stays.
 */
const DiscardMedia = v.optional(v.boolean('validation.boolean'), false)

/** Changes to a lesson model: its content, and the persona switch's confirmation. */
export const LessonModelUpdate = v.object({ ...LessonInput.entries, discard_media: DiscardMedia })
export type LessonModelUpdate = v.InferOutput<typeof LessonModelUpdate>

/** Changes to a published lesson: its content and its dates (its targets stay; publish again to reach others). */
export const LessonUpdate = v.object({
  ...LessonInput.entries,
  publish_at: v.optional(Instant),
  expire_at: v.optional(v.nullable(Instant)),
  discard_media: DiscardMedia,
})
export type LessonUpdate = v.InferOutput<typeof LessonUpdate>

/** Dates of a publication: the end after the start. */
export const lessonDateProblems = publicationDateProblems
