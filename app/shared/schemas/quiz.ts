import * as v from 'valibot'
import { defineEntity, type FieldDef } from './entity'
import { Id } from './tms/common'

/**
 * Quizzes and polls (seed 002 §3 "Quiz", "Poll", §4, §5, §8, §9; issue 14). One module for the console's forms, the
 * realm API and the quiz party's protocol.
 * - A quiz runs on a channel; its questions have a statement, options A, B, C and the correct one.
 * - A quiz or poll is `draft` until it is started (published), then `active`, then `finished` or `canceled` (seed §4
 *   names the last three; `draft` is the state before the start, which the seed leaves unnamed).
 * - A question is `pending`, `published` (answers open until its deadline), `result` (its result shown), `finished`
 *   (its results written), or `hidden`.
 */
export const QUIZ_STATUSES = ['draft', 'active', 'canceled', 'finished'] as const
export type QuizStatus = (typeof QUIZ_STATUSES)[number]
export const QUESTION_STATES = ['pending', 'published', 'result', 'finished', 'hidden'] as const
export type QuestionState = (typeof QUESTION_STATES)[number]
/** Seed §9: quiz options are A, B, C. */
export const QUIZ_OPTIONS = ['A', 'B', 'C'] as const
export type QuizOption = (typeof QUIZ_OPTIONS)[number]
/** Whose wallet pays the reward: the realm's, or the channel owner's. */
export const REWARD_TYPES = ['realm', 'channel_owner'] as const
/** Seed 000 §9: the quiz reward currency defaults to R$ (BRL). */
export const REWARD_CURRENCIES = ['BRL', 'USD', 'EUR'] as const
/** Seed §5/§9: answer time and extra-life time must exceed 8 seconds; our upper bound is 10 minutes. */
export const MIN_SECONDS_EXCLUSIVE = 8
export const MAX_SECONDS = 600
/** Character limits (seed §5 says "has a character limit" without its value). */
export const STATEMENT_MAX = 300
export const OPTION_MAX = 120
export const NAME_MAX = 120
/** At most this many questions in one quiz or poll, and in one import. */
export const MAX_QUESTIONS = 200
export const MAX_LIVES = 5

const text = (max: number) =>
  v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(max, 'validation.max_length'))
const seconds = v.pipe(
  v.number('validation.required'),
  v.integer('validation.integer'),
  v.check((n) => n > MIN_SECONDS_EXCLUSIVE, 'validation.quiz.more_than_8_seconds'),
  v.maxValue(MAX_SECONDS, 'validation.max_value'),
)
const credits = v.pipe(
  v.number('validation.required'),
  v.integer('validation.integer'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(100_000_000, 'validation.max_value'),
)

export const QuizName = text(NAME_MAX)

const quizFields = {
  name: QuizName,
  channel_id: Id,
  reward_type: v.picklist(REWARD_TYPES, 'validation.required'),
  /** What the winners get, as players read it (e.g. "Créditos"). */
  reward: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120, 'validation.max_length')), ''),
  /** The quiz's whole prize in credits: the most its finish may pay. */
  reward_value: credits,
  /** Credits each winner gets. */
  reward_per_player: credits,
  reward_currency: v.optional(v.picklist(REWARD_CURRENCIES, 'validation.picklist'), 'BRL'),
  question_duration: seconds,
  lifes_timeout: seconds,
  /** Extra lives each player holds (0: none). */
  lives: v.optional(
    v.pipe(
      v.number('validation.number'),
      v.integer('validation.integer'),
      v.minValue(0, 'validation.min_value'),
      v.maxValue(MAX_LIVES, 'validation.max_value'),
    ),
    1,
  ),
}

export const QuizInput = v.pipe(
  v.object(quizFields),
  v.forward(
    v.check((q) => q.reward_per_player <= q.reward_value, 'validation.quiz.per_player_above_value'),
    ['reward_per_player'],
  ),
)
export type QuizInput = v.InferOutput<typeof QuizInput>

export const QuizQuestionInput = v.object({
  text: text(STATEMENT_MAX),
  option_a: text(OPTION_MAX),
  option_b: text(OPTION_MAX),
  option_c: text(OPTION_MAX),
  correct: v.picklist(QUIZ_OPTIONS, 'validation.quiz.correct_required'),
  lifes_disallowed: v.optional(v.boolean('validation.boolean'), false),
})
export type QuizQuestionInput = v.InferOutput<typeof QuizQuestionInput>

/** An import: the file's text as CSV (header `text,option_a,option_b,option_c,correct[,lifes_disallowed]`) or JSON (an array of questions). */
export const QuizImportInput = v.object({
  format: v.picklist(['csv', 'json'] as const, 'validation.picklist'),
  content: v.pipe(v.string('validation.required'), v.maxLength(1_000_000, 'validation.max_length')),
})
/** Questions from the task question bank: single-choice items with exactly three options. */
export const QuizBankImportInput = v.object({
  ids: v.pipe(v.array(Id), v.minLength(1, 'validation.quiz.import_empty'), v.maxLength(MAX_QUESTIONS, 'validation.max_items')),
})

/** What a quiz and a poll record alike: their lifecycle, question count and stamps (last in their entity's fields). */
type RunRecord = {
  status: QuizStatus
  question_count: number
  started_at: string | null
  finished_at: string | null
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

const RUN_FIELDS = {
  status: { type: 'text', list: true, filter: 'eq', sort: true },
  question_count: { type: 'int', list: true },
  started_at: { type: 'text', list: true, nullable: true },
  finished_at: { type: 'text', list: true, nullable: true },
  created_at: { type: 'text', sort: true, list: true },
  created_by: { type: 'text' },
  updated_at: { type: 'text', sort: true, list: true },
  updated_by: { type: 'text', list: true },
} as const satisfies Record<keyof RunRecord, FieldDef>

/** A quiz's or poll's question's place and state in its run. */
type RunQuestion = {
  id: string
  position: number
  state: QuestionState
  published_at: string | null
  deadline: string | null
}

export type Quiz = {
  id: string
  realm: string
  name: string
  channel_id: string
  channel_name?: string
  reward_type: (typeof REWARD_TYPES)[number]
  reward: string
  reward_value: number
  reward_per_player: number
  reward_currency: (typeof REWARD_CURRENCIES)[number]
  question_duration: number
  lifes_timeout: number
  lives: number
} & RunRecord

export type QuizQuestion = QuizQuestionInput & RunQuestion & { quiz_id: string }

export const quizEntity = defineEntity<Omit<Quiz, 'channel_name'>>({
  name: 'quiz',
  table: 'quiz',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    channel_id: { type: 'text', list: true, filter: 'eq' },
    reward_type: { type: 'text', list: true },
    reward: { type: 'text' },
    reward_value: { type: 'int', list: true },
    reward_per_player: { type: 'int', list: true },
    reward_currency: { type: 'text', list: true },
    question_duration: { type: 'int', list: true },
    lifes_timeout: { type: 'int' },
    lives: { type: 'int' },
    ...RUN_FIELDS,
  },
  defaultOrder: '-created_at',
})

// ——— Polls ———

/** Poll types (seed §3 names the field, not its values): an open vote, or a secret one whose answers name nobody. */
export const POLL_TYPES = ['open', 'secret'] as const
/** Poll question types: one choice, several choices, or a rating from 1 to `params.scale`. */
export const POLL_QUESTION_TYPES = ['single', 'multiple', 'rating'] as const
/** Seed §9: the requirements a player answers before voting. */
export const POLL_REQUIREMENTS = ['age', 'gender', 'location'] as const
export const POLL_OPTIONS_MAX = 10

export const PollRequires = v.object({
  age: v.optional(v.boolean('validation.boolean'), false),
  gender: v.optional(v.boolean('validation.boolean'), false),
  location: v.optional(v.boolean('validation.boolean'), false),
})

export const PollInput = v.object({
  type: v.picklist(POLL_TYPES, 'validation.required'),
  name: QuizName,
  channel_id: Id,
  question_duration: seconds,
  requires: v.optional(PollRequires, {}),
})
export type PollInput = v.InferOutput<typeof PollInput>

export const PollParams = v.object({
  /** multiple: the most options one vote may pick (0: any). */
  max_choices: v.optional(v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0), v.maxValue(POLL_OPTIONS_MAX)), 0),
  /** rating: the top of the scale. */
  scale: v.optional(v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(2), v.maxValue(10)), 5),
})

export const PollQuestionInput = v.pipe(
  v.object({
    text: text(STATEMENT_MAX),
    type: v.optional(v.picklist(POLL_QUESTION_TYPES, 'validation.picklist'), 'single'),
    /** The form starts with two empty options; a choice question needs at least two filled ones. */
    options: v.optional(
      v.pipe(
        // A form posts an empty option as nothing (Conform): it is an empty option, dropped below.
        v.array(v.optional(v.pipe(v.string(), v.trim(), v.maxLength(OPTION_MAX, 'validation.max_length')), '')),
        v.maxLength(POLL_OPTIONS_MAX, 'validation.max_items'),
      ),
      ['', ''],
    ),
    params: v.optional(PollParams, {}),
  }),
  v.transform((q) => ({ ...q, options: q.type === 'rating' ? [] : q.options.filter((o) => o !== '') })),
  v.forward(
    v.check((q) => q.type === 'rating' || q.options.length >= 2, 'validation.poll.two_options'),
    ['options'],
  ),
)
export type PollQuestionInput = v.InferOutput<typeof PollQuestionInput>

export type Poll = {
  id: string
  realm: string
  type: (typeof POLL_TYPES)[number]
  name: string
  channel_id: string
  /** The channel's name (list and get). */
  channel_name?: string
  question_duration: number
  requires: v.InferOutput<typeof PollRequires>
} & RunRecord

export type PollQuestion = PollQuestionInput & RunQuestion & { poll_id: string }

export const pollEntity = defineEntity<Omit<Poll, 'channel_name'>>({
  name: 'poll',
  table: 'poll',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    type: { type: 'text', list: true, filter: 'eq' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    channel_id: { type: 'text', list: true, filter: 'eq' },
    question_duration: { type: 'int', list: true },
    requires: { type: 'json' },
    ...RUN_FIELDS,
  },
  defaultOrder: '-created_at',
})

// ——— The quiz party's calls to the realm API (service ticket) ———

const Nick = v.pipe(v.string(), v.minLength(1), v.maxLength(160))
const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000_000))
const MAX_PLAYERS = 100_000

export const PartyPublish = v.object({ published_at: v.pipe(v.string(), v.isoTimestamp()), deadline: v.pipe(v.string(), v.isoTimestamp()) })

export const PartyStanding = v.object({
  nick: Nick,
  name: v.pipe(v.string(), v.maxLength(200)),
  guest: v.boolean(),
  score: Count,
  total_ms: Count,
  correct_count: Count,
  lives_left: Count,
  lives_used: Count,
  eliminated: v.boolean(),
})

/**
 * The quiz party's write of a closed question's answers and the standings, in pages under the API's body limit
 * (party/quiz-results.ts): only the `final` page (the default) finishes the question.
 */
export const PartyResults = v.object({
  answers: v.pipe(v.array(v.object({ nick: Nick, option: v.picklist(QUIZ_OPTIONS), ms: Count })), v.maxLength(MAX_PLAYERS)),
  players: v.pipe(v.array(PartyStanding), v.maxLength(MAX_PLAYERS)),
  final: v.optional(v.boolean(), true),
})
export type PartyResults = v.InferOutput<typeof PartyResults>

/** A guest joining a quiz: the nickname, and on a rejoin the `resume` token the first join answered (same player). */
export const QuizGuestJoin = v.object({
  name: v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(40, 'validation.max_length')),
  resume: v.optional(v.pipe(v.string(), v.maxLength(2000))),
})

/** The quiz party's write of a closed poll question's votes: each voter's choices (indexes) and requirement answers. */
export const PartyVotes = v.object({
  votes: v.pipe(
    v.array(
      v.object({
        nick: Nick,
        choices: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(9))), v.minLength(1), v.maxLength(POLL_OPTIONS_MAX)),
        profile: v.object({
          age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(130))),
          gender: v.optional(v.pipe(v.string(), v.maxLength(20))),
          location: v.optional(v.pipe(v.string(), v.maxLength(80))),
        }),
      }),
    ),
    v.maxLength(MAX_PLAYERS),
  ),
  /** The party's last page of the question's votes (the default): it finishes the question. */
  final: v.optional(v.boolean(), true),
})
export type QuizGuestJoin = v.InferOutput<typeof QuizGuestJoin>
