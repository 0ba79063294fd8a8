import * as v from 'valibot'
import { Description, Id, Name, Tags } from '../tms/common'
import { Question } from '../tms/question'
import {
  CLASS_PLAN_MINUTES,
  CLASS_TYPES,
  CONFIG_EXAMPLES,
  CONFIG_LENGTHS,
  CONFIG_STYLES,
  GROUP_SIZES,
  LESSON_LANGUAGES,
  SUMMARY_DEPTHS,
  SUMMARY_FOCUSES,
  TRANSITIONS,
} from './content'
import { SlideDeck } from './slide'

/**
 * Content configurations, agents, the realm's content-generation settings and generation jobs (issue 18, seed 001
 * §3 "Content config", "Agent", "Realm content-generation settings"): shared by the cgs screens, the genesis screens,
 * the API and the generator.
 */

/** The contents the generator writes, each with a configuration type of its own (video and persona are not generated here). */
export const GENERATED_KINDS = ['summary', 'class_plan', 'handout', 'slide', 'narrative', 'task', 'question_pairs'] as const
export type GeneratedKind = (typeof GENERATED_KINDS)[number]
/** Content-configuration types: one per generated content (the path's `{type}`). */
export const CONFIG_TYPES = GENERATED_KINDS
export type ConfigType = GeneratedKind

/** The price-list key each generated content is charged under (seeded system prices, ledger decisions). */
export const CONTENT_PRICE_KEYS: Record<GeneratedKind, string> = {
  summary: 'lesson.summary',
  class_plan: 'lesson.class_plan',
  handout: 'lesson.handout',
  slide: 'lesson.slides',
  narrative: 'lesson.narration',
  task: 'lesson.tasks',
  question_pairs: 'lesson.qa_pairs',
}
/** The price of generating a task model (genesis/model/generate). */
export const MODEL_PRICE_KEY = 'tms.model_generation'

const pick = <T extends readonly string[]>(options: T, fallback: T[number]) => v.optional(v.picklist(options, 'validation.picklist'), fallback)

/** Options every configuration has (style, length, examples). */
const common = { style: pick(CONFIG_STYLES, 'engaging'), length: pick(CONFIG_LENGTHS, 'medium'), examples: pick(CONFIG_EXAMPLES, 'none') }

export const SummaryOptions = v.object({
  ...common,
  depth: pick(SUMMARY_DEPTHS, 'standard'),
  focus: v.optional(
    v.pipe(
      v.array(v.picklist(SUMMARY_FOCUSES, 'validation.picklist')),
      v.check((xs) => new Set(xs).size === xs.length, 'validation.duplicate'),
    ),
    ['definitions'],
  ),
})
export const ClassPlanOptions = v.object({
  ...common,
  duration: v.optional(
    v.pipe(
      v.number('validation.number'),
      v.integer('validation.integer'),
      v.minValue(CLASS_PLAN_MINUTES.min, 'validation.lesson.class_plan_minutes'),
      v.maxValue(CLASS_PLAN_MINUTES.max, 'validation.lesson.class_plan_minutes'),
    ),
    50,
  ),
  class_type: pick(CLASS_TYPES, 'lecture'),
  group_size: pick(GROUP_SIZES, 'whole_class'),
  homework: v.optional(v.boolean('validation.boolean'), false),
  materials: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, 'validation.max_length')), ''),
})
export const NARRATIVE_TONES = ['friendly', 'neutral', 'enthusiastic', 'serious'] as const
export const NarrativeOptions = v.object({
  ...common,
  tone: pick(NARRATIVE_TONES, 'friendly'),
  cover_length: pick(CONFIG_LENGTHS, 'medium'),
  slide_length: pick(CONFIG_LENGTHS, 'medium'),
  last_slide_length: pick(CONFIG_LENGTHS, 'medium'),
  transitions: pick(TRANSITIONS, 'smooth'),
})
const CommonOptions = v.object(common)

/** The options' schema of each configuration type. */
export const OPTIONS_BY_TYPE = {
  summary: SummaryOptions,
  class_plan: ClassPlanOptions,
  handout: CommonOptions,
  slide: CommonOptions,
  narrative: NarrativeOptions,
  task: CommonOptions,
  question_pairs: CommonOptions,
} as const satisfies Record<ConfigType, v.GenericSchema>
export type SummaryOptions = v.InferOutput<typeof SummaryOptions>
export type ClassPlanOptions = v.InferOutput<typeof ClassPlanOptions>
export type NarrativeOptions = v.InferOutput<typeof NarrativeOptions>
export type CommonOptions = v.InferOutput<typeof CommonOptions>
export type AnyOptions = Partial<SummaryOptions & ClassPlanOptions & NarrativeOptions>

const fields = {
  title: Name(2, 120),
  tags: Tags,
  guideline: v.optional(Description(4000), ''),
  is_public: v.optional(v.boolean('validation.boolean'), false),
  default_selected: v.optional(v.boolean('validation.boolean'), false),
  agent_id: v.optional(v.nullable(Id), null),
}

/** The form's schema of one type's configuration (the type is the screen's path). */
export const configForm = <T extends ConfigType>(type: T) => v.object({ ...fields, options: v.optional(OPTIONS_BY_TYPE[type], {}) })

const typedForm = <T extends ConfigType>(t: T) => v.object({ type: v.literal(t), ...configForm(t).entries })
/** POST/PUT /cgs/content_config: a configuration of one type (`type` picks its options). */
export const ContentConfigInput = v.variant(
  'type',
  CONFIG_TYPES.map((t) => typedForm(t)) as unknown as [ReturnType<typeof typedForm<'summary'>>, ...ReturnType<typeof typedForm<ConfigType>>[]],
  'validation.picklist',
)
export type ContentConfigInput = v.InferOutput<typeof ContentConfigInput>

export interface ContentConfig {
  id: string
  realm: string
  type: ConfigType
  title: string
  tags: string[]
  options: AnyOptions
  guideline: string
  is_public: boolean
  default_selected: boolean
  agent_id: string | null
  agent_name: string | null
  created_by: string
  created_at: string
  updated_at: string
  updated_by: string
  /** Generated lessons that used it (jobs' titles), newest first. */
  linked_lessons?: { job_id: string; title: string; created_at: string }[]
}

/** Realm content-generation settings (seed 001 §3): what can be generated, defaults, whether users may choose. */
export const GENESIS_SETTING_KINDS = ['task', 'video', 'summary', 'persona', 'handout', 'class_plan', 'presentation'] as const
export type GenesisSettingKind = (typeof GENESIS_SETTING_KINDS)[number]
/** The setting kind that switches a generated content (slides and narration are the presentation). */
export const SETTING_OF: Record<GeneratedKind, GenesisSettingKind> = {
  summary: 'summary',
  class_plan: 'class_plan',
  handout: 'handout',
  slide: 'presentation',
  narrative: 'presentation',
  task: 'task',
  question_pairs: 'task',
}
const Flag = v.optional(v.boolean('validation.boolean'))
const Limit = (max: number) =>
  v.optional(
    v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(1, 'validation.min_value'), v.maxValue(max, 'validation.max_value')),
  )

export const GenesisSettingsInput = v.object({
  activate: v.optional(v.object(Object.fromEntries(GENESIS_SETTING_KINDS.map((k) => [k, Flag])) as Record<GenesisSettingKind, typeof Flag>)),
  allow_custom: v.optional(v.object(Object.fromEntries(GENESIS_SETTING_KINDS.map((k) => [k, Flag])) as Record<GenesisSettingKind, typeof Flag>)),
  default_config: v.optional(
    v.object(
      Object.fromEntries(CONFIG_TYPES.map((k) => [k, v.optional(v.nullable(Id))])) as Record<
        ConfigType,
        v.OptionalSchema<v.NullableSchema<typeof Id, undefined>, undefined>
      >,
    ),
  ),
  /** Intro video limits (seed 001 §3; values not shown): bytes, kbit/s, seconds. */
  max_intro_size: Limit(2_000_000_000),
  max_intro_kbps: Limit(100_000),
  max_intro_duration: Limit(3600),
})
export type GenesisSettingsInput = v.InferOutput<typeof GenesisSettingsInput>
export interface GenesisSettings {
  activate: Record<GenesisSettingKind, boolean>
  allow_custom: Record<GenesisSettingKind, boolean>
  default_config: Record<ConfigType, string | null>
  max_intro_size: number
  max_intro_kbps: number
  max_intro_duration: number
}

/** Agent (seed 001 §3): shapes the generation prompt by its target audience. */
export const AgentInput = v.object({
  name: Name(2, 120),
  tags: Tags,
  is_public: v.optional(v.boolean('validation.boolean'), false),
  target_audience: v.optional(Description(1000), ''),
})

/** Where a lesson source is read from: a lesson model or a published lesson (its own copy of the content). */
export const LESSON_SOURCE_FROM = ['model', 'lesson'] as const
export type LessonSourceFrom = (typeof LESSON_SOURCE_FROM)[number]

/** A source of a generation (typed text, an uploaded PDF/PPTX/TXT, a web address, a lesson model or lesson of the realm). */
export const GenesisSource = v.variant(
  'kind',
  [
    v.object({
      kind: v.literal('text'),
      text: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(200_000, 'validation.max_length')),
    }),
    v.object({ kind: v.literal('file'), file_id: Id }),
    v.object({
      kind: v.literal('url'),
      url: v.pipe(v.string('validation.required'), v.trim(), v.url('validation.url'), v.maxLength(2000, 'validation.max_length')),
    }),
    v.object({ kind: v.literal('lesson'), lesson_id: Id, from: v.optional(v.picklist(LESSON_SOURCE_FROM, 'validation.picklist'), 'model') }),
  ],
  'validation.picklist',
)
export type GenesisSource = v.InferOutput<typeof GenesisSource>
const Sources = v.pipe(v.array(GenesisSource), v.minLength(1, 'genesis.error.source_required'), v.maxLength(5, 'validation.max_items'))
const Key = v.pipe(v.string('validation.required'), v.trim(), v.minLength(8, 'validation.min_length'), v.maxLength(100, 'validation.max_length'))
const Points = v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0, 'validation.min_value'))

/** One content to generate: its kind, its configuration (the realm's default when null) and the price the user saw. */
export const GenesisContentRequest = v.object({
  kind: v.picklist(GENERATED_KINDS, 'validation.picklist'),
  config_id: v.optional(v.nullable(Id), null),
  confirm_points: Points,
})

/** POST /genesis/lesson_model/job: start a lesson generation. */
export const LessonJobCreate = v.pipe(
  v.object({
    title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
    language: v.optional(v.picklist(LESSON_LANGUAGES, 'validation.picklist'), 'pt-BR'),
    agent_id: v.optional(v.nullable(Id), null),
    sources: Sources,
    contents: v.pipe(
      v.array(GenesisContentRequest),
      v.minLength(1, 'genesis.error.contents_required'),
      v.maxLength(GENERATED_KINDS.length, 'validation.max_items'),
      v.check((cs) => new Set(cs.map((c) => c.kind)).size === cs.length, 'validation.duplicate'),
      v.check((cs) => !cs.some((c) => c.kind === 'narrative') || cs.some((c) => c.kind === 'slide'), 'genesis.error.narrative_needs_slides'),
    ),
    idempotency_key: Key,
  }),
)
export type LessonJobCreate = v.InferOutput<typeof LessonJobCreate>

/** POST /genesis/quote: the price of each content and the total, before confirming. */
export const QuoteQuery = v.object({ kinds: v.optional(v.string(), '') })

/** Question types the generator writes (cloze, true/false, single choice). */
export const GENERATED_QUESTION_TYPES = ['fill_words', 'true_false', 'single'] as const
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const
export type Difficulty = (typeof DIFFICULTIES)[number]

/** POST /genesis/model: generate a task model draft (reviewed in the task-model editor before it is saved). */
export const ModelGenerate = v.object({
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
  language: v.optional(v.picklist(LESSON_LANGUAGES, 'validation.picklist'), 'pt-BR'),
  agent_id: v.optional(v.nullable(Id), null),
  config_id: v.optional(v.nullable(Id), null),
  sources: Sources,
  counts: v.pipe(
    v.object(
      Object.fromEntries(
        GENERATED_QUESTION_TYPES.map((t) => [
          t,
          v.optional(
            v.pipe(
              v.number('validation.number'),
              v.integer('validation.integer'),
              v.minValue(0, 'validation.min_value'),
              v.maxValue(20, 'validation.max_value'),
            ),
            0,
          ),
        ]),
      ) as Record<
        (typeof GENERATED_QUESTION_TYPES)[number],
        v.OptionalSchema<
          v.SchemaWithPipe<
            [v.NumberSchema<string>, v.IntegerAction<number, string>, v.MinValueAction<number, 0, string>, v.MaxValueAction<number, 20, string>]
          >,
          0
        >
      >,
    ),
    v.check((c) => Object.values(c).reduce((a, b) => a + b, 0) >= 1, 'genesis.error.not_enough_assessments'),
  ),
  difficulty: v.optional(v.picklist(DIFFICULTIES, 'validation.picklist'), 'medium'),
  confirm_points: Points,
  idempotency_key: Key,
})
export type ModelGenerate = v.InferOutput<typeof ModelGenerate>

/** A question-answer pair of a lesson. */
export const QuestionPair = v.object({
  question: v.pipe(v.string(), v.minLength(3, 'validation.min_length'), v.maxLength(1000, 'validation.max_length')),
  answer: v.pipe(v.string(), v.minLength(1, 'validation.required'), v.maxLength(4000, 'validation.max_length')),
})
export type QuestionPair = v.InferOutput<typeof QuestionPair>

/** The generated lesson: one document matching the lesson contract (the lesson editor opens it). */
export const GeneratedLesson = v.object({
  title: v.string(),
  description: v.string(),
  language: v.picklist(LESSON_LANGUAGES),
  summary: v.string(),
  class_plan: v.object({ html: v.string(), minutes: v.number() }),
  handout: v.string(),
  slides: SlideDeck,
  question_pairs: v.array(QuestionPair),
  questions: v.array(Question),
})
export type GeneratedLesson = v.InferOutput<typeof GeneratedLesson>

export const JOB_STATES = ['running', 'done', 'failed', 'canceled'] as const
export const CONTENT_STATES = ['pending', 'running', 'done', 'failed', 'canceled'] as const
export type JobState = (typeof JOB_STATES)[number]
export type ContentState = (typeof CONTENT_STATES)[number]

export interface GenesisJobContent {
  kind: GeneratedKind
  config_id: string | null
  status: ContentState
  points: number
  operation: string | null
  /** Why it failed (an API cause: ai_failed, ai_provider_failed, insufficient_credits, …) and whether it was refunded. */
  error: string | null
  refunded: boolean
  engine: string | null
  started_at: string | null
  finished_at: string | null
}
/** A job as the recent-jobs list shows it (GET /genesis/job). */
export interface GenesisJobSummary {
  id: string
  title: string
  language: string
  status: JobState
  lesson_id: string | null
  created_at: string
  updated_at: string
  /** Contents asked for, and how many of them have ended (done, failed or canceled). */
  contents: number
  ended: number
}

/** GET /genesis/lessons: which kind of lesson to list, and the text to match. */
export const LessonSourceQuery = v.object({
  from: v.optional(v.picklist(LESSON_SOURCE_FROM, 'validation.picklist'), 'model'),
  like: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
})

/** A lesson the generation may read as a source (GET /genesis/lessons). */
export interface LessonSourceOption {
  id: string
  title: string
  language: string
  updated_at: string
}

export interface GenesisJob {
  id: string
  title: string
  language: string
  status: JobState
  engine: string
  created_by: string
  created_at: string
  updated_at: string
  total_points: number
  contents: GenesisJobContent[]
  /** The lesson document once every content has run (done contents only). */
  result: Partial<GeneratedLesson> | null
}
