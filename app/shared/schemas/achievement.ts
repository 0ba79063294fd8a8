import * as v from 'valibot'
import { defineEntity, type Stamped } from './entity'
import { CalendarDay, WebUrl } from './common'
import { Description, Flag, Id, Name, Tags, fieldPath } from './tms/common'

/**
 * Goals, objectives, awards and tracks (issue 19; seed 001 §3 "Track", "Goal", "Objective", "Award", §4, §5 "Goals";
 * seed 000 §9: goal period default weekly). README "Goals, objectives, awards and tracks (issue 19)".
 */
export const OBJECTIVE_ENTITIES = ['essay', 'exam', 'tasks', 'questions'] as const
export const OBJECTIVE_CRITERIA = ['all', 'at_least_one'] as const
export const OBJECTIVE_UNITS = ['score', 'quantity'] as const
export const GOAL_STATUSES = ['planned', 'active', 'finished', 'canceled'] as const
export const GOAL_PERIODS = ['weekly', 'monthly', 'bimonthly', 'biannual', 'yearly'] as const
export const GOAL_TYPES = ['model', 'goal'] as const
export const TRACK_ITEM_KINDS = ['task_model', 'lesson', 'survey'] as const
export type GoalStatus = (typeof GOAL_STATUSES)[number]
export type GoalPeriod = (typeof GOAL_PERIODS)[number]

/** A fraction 0..1 (percentages are stored as fractions and shown as 100 × the fraction, capped at 100). */
const Fraction = v.pipe(
  v.number('validation.number'),
  v.finite('validation.number'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(1, 'validation.max_value'),
)

/** Shown percentage of a stored fraction: 100 × the fraction, capped at 100 (seed 001 §5). */
export const shownPercent = (fraction: number) => Math.min(100, Math.round(fraction * 1000) / 10)

export const ObjectiveInput = v.object({
  title: Name(2, 120),
  entity: v.optional(v.picklist(OBJECTIVE_ENTITIES, 'validation.picklist'), 'tasks'),
  criteria: v.optional(v.picklist(OBJECTIVE_CRITERIA, 'validation.picklist'), 'all'),
  unit: v.optional(v.picklist(OBJECTIVE_UNITS, 'validation.picklist'), 'score'),
  percent: v.optional(v.pipe(Fraction, v.minValue(0.01, 'validation.min_value')), 1),
})
export type ObjectiveInput = v.InferOutput<typeof ObjectiveInput>
export type Objective = ObjectiveInput & Stamped

/** A day, `YYYY-MM-DD`. */
export const Day = CalendarDay()

export const GoalTarget = v.object({ kind: v.picklist(['room', 'group'], 'validation.picklist'), id: Id })
export type GoalTarget = v.InferOutput<typeof GoalTarget>

const unique = <T>(key: (x: T) => string, message: string) => v.check<T[], string>((xs) => new Set(xs.map(key)).size === xs.length, message)

export const AwardProgress = v.pipe(
  v.object({ objective_id: Id, min: Fraction, max: Fraction }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.max < dataset.value.min) addIssue({ message: 'validation.achievement.min_max', path: fieldPath(dataset.value, 'max') })
  }),
)

/** An award: title, description, media, the realm's award kind, the progress band per objective (seed 001 §5). */
export const AwardInput = v.object({
  id: v.optional(v.nullable(Id), null),
  title: Name(2, 120),
  description: v.pipe(Description(1000), v.minLength(1, 'validation.required')),
  media_url: v.optional(v.nullable(WebUrl({ empty: true, relative: true })), null),
  kind: v.optional(v.string(), 'product'),
  progress: v.pipe(
    v.array(AwardProgress),
    v.minLength(1, 'validation.achievement.award_progress'),
    v.maxLength(20, 'validation.max_items'),
    v.check((ps) => new Set(ps.map((p) => p.objective_id)).size === ps.length, 'validation.achievement.duplicate'),
  ),
})
export type AwardInput = v.InferOutput<typeof AwardInput>

const Targets = v.optional(
  v.pipe(
    v.array(GoalTarget),
    v.maxLength(200, 'validation.max_items'),
    unique((t: GoalTarget) => `${t.kind}:${t.id}`, 'validation.achievement.duplicate'),
  ),
  [],
)
const Categories = v.optional(
  v.pipe(
    v.array(Id),
    v.maxLength(50, 'validation.max_items'),
    unique((x: string) => x, 'validation.achievement.duplicate'),
  ),
  [],
)

/** A goal model (seed 001 §3 "Goal", §5): title, objectives, awards, categories, and the publication defaults. */
export const GoalInput = v.pipe(
  v.object({
    title: Name(2, 120),
    status: v.optional(v.picklist(GOAL_STATUSES, 'validation.picklist'), 'planned'),
    start_date: v.optional(v.nullable(Day), null),
    end_date: v.optional(v.nullable(Day), null),
    recurrent: Flag,
    period: v.optional(v.picklist(GOAL_PERIODS, 'validation.achievement.period'), 'weekly'),
    targets: Targets,
    activity_categories: Categories,
    question_categories: Categories,
    objective_ids: v.pipe(
      v.array(Id, 'validation.achievement.objective_required'),
      v.minLength(1, 'validation.achievement.objective_required'),
      v.maxLength(20, 'validation.max_items'),
      unique((x: string) => x, 'validation.achievement.duplicate'),
    ),
    awards: v.pipe(
      v.array(AwardInput, 'validation.achievement.award_required'),
      v.minLength(1, 'validation.achievement.award_required'),
      v.maxLength(20, 'validation.max_items'),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const g = dataset.value
    if (g.start_date && g.end_date && g.end_date < g.start_date)
      addIssue({ message: 'validation.achievement.end_before_start', path: fieldPath(g, 'end_date') })
  }),
)
export type GoalInput = v.InferOutput<typeof GoalInput>

/** Publishing a goal model: whom, when, and the recurrence (seed 001 §5: dates not in the past). */
export const PublishGoalInput = v.pipe(
  v.object({
    start_date: Day,
    end_date: Day,
    recurrent: Flag,
    period: v.optional(v.picklist(GOAL_PERIODS, 'validation.achievement.period'), 'weekly'),
    targets: v.pipe(Targets, v.minLength(1, 'validation.achievement.target_required')),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const g = dataset.value
    if (g.end_date < g.start_date) addIssue({ message: 'validation.achievement.end_before_start', path: fieldPath(g, 'end_date') })
  }),
)
export type PublishGoalInput = v.InferOutput<typeof PublishGoalInput>

/** A published goal's status change (canceling shows it as Disabled; reactivating returns to the clock's status). */
export const GoalStatusInput = v.object({ status: v.picklist(['canceled', 'active'], 'validation.picklist') })

export type Award = AwardInput & { id: string; goal_id: string; position: number }
/** A goal as stored. */
export type GoalRow = Omit<GoalInput, 'awards'> &
  Stamped & {
    type: (typeof GOAL_TYPES)[number]
    model_id: string | null
    created_by: string
  }
/** A goal as the API answers it: the clock's status (canceled stays canceled), its awards, its published goals. */
export type Goal = GoalRow & { shown_status: GoalStatus; awards: Award[]; published_count: number }

/** The SQL of a goal's shown status (seed 001 §4): canceled, else planned before its start, finished after its end. */
export const SHOWN_STATUS_SQL = `CASE WHEN "achievement_goal".status = 'canceled' THEN 'canceled'
  WHEN "achievement_goal".start_date IS NULL THEN "achievement_goal".status
  WHEN "achievement_goal".start_date > date('now') THEN 'planned'
  WHEN "achievement_goal".end_date < date('now') THEN 'finished' ELSE 'active' END`

export const goalEntity = defineEntity<GoalRow>({
  name: 'achievement_goal',
  table: 'achievement_goal',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    type: { type: 'text', list: true, filter: 'eq' },
    model_id: { type: 'text', list: true, filter: 'eq', nullable: true },
    title: { type: 'text', list: true, search: true, sort: true },
    status: { type: 'text', list: true, filter: 'eq' },
    start_date: { type: 'text', list: true, sort: true, nullable: true },
    end_date: { type: 'text', list: true, nullable: true },
    recurrent: { type: 'bool', list: true },
    period: { type: 'text', list: true },
    targets: { type: 'json', list: true },
    activity_categories: { type: 'json' },
    question_categories: { type: 'json' },
    objective_ids: { type: 'json', list: true },
    created_at: { type: 'text' },
    created_by: { type: 'text' },
    updated_at: { type: 'text', list: true, sort: true },
    updated_by: { type: 'text' },
  },
  defaultOrder: '-updated_at',
})

/** A track's item: a task model, a lesson (model) or a survey (model), in order. */
export const TrackItem = v.object({ kind: v.picklist(TRACK_ITEM_KINDS, 'validation.picklist'), id: Id })
export type TrackItem = v.InferOutput<typeof TrackItem>

export const TrackInput = v.object({
  title: Name(2, 120),
  type: v.optional(v.literal('track', 'validation.picklist'), 'track'),
  description: v.optional(Description(2000), ''),
  tags: Tags,
  is_public: Flag,
  items: v.optional(v.pipe(v.array(TrackItem), v.maxLength(200, 'validation.max_items')), []),
})
export type TrackInput = v.InferOutput<typeof TrackInput>
export type Track = TrackInput & Stamped

/** The start of each period after `start` (`YYYY-MM-DD`), `n` periods on. */
export function periodStart(start: string, period: GoalPeriod, n: number): string {
  const d = new Date(`${start}T00:00:00Z`)
  if (period === 'weekly') d.setUTCDate(d.getUTCDate() + 7 * n)
  else {
    const months = { monthly: 1, bimonthly: 2, biannual: 6, yearly: 12 }[period] * n
    const day = d.getUTCDate()
    d.setUTCDate(1)
    d.setUTCMonth(d.getUTCMonth() + months)
    // The 31st of a month without one is its last day.
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
    d.setUTCDate(Math.min(day, last))
  }
  return d.toISOString().slice(0, 10)
}

/** The period of a goal holding `today`: its key, first and last day; null before the start or after the end. */
export function periodOf(
  goal: { start_date: string | null; end_date: string | null; recurrent: boolean; period: GoalPeriod },
  today: string,
): { key: string; starts_on: string; ends_on: string } | null {
  if (!goal.start_date || !goal.end_date || today < goal.start_date || today > goal.end_date) return null
  if (!goal.recurrent) return { key: 'once', starts_on: goal.start_date, ends_on: goal.end_date }
  let n = 0
  while (periodStart(goal.start_date, goal.period, n + 1) <= today) n++
  const starts = periodStart(goal.start_date, goal.period, n)
  const next = new Date(`${periodStart(goal.start_date, goal.period, n + 1)}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() - 1)
  const ends = next.toISOString().slice(0, 10)
  return { key: starts, starts_on: starts, ends_on: ends < goal.end_date ? ends : goal.end_date }
}

/** A track's progress (issue 19): what the Worker answers and the console and the phone show. */
export type TrackItemKind = 'task_model' | 'lesson' | 'survey'

export interface TrackProgressItem {
  pos: number
  kind: TrackItemKind
  model_id: string
  /** The model's title; null when the model was removed after the track named it. */
  title: string | null
  /** Publications from the model that reach the room (publish time come). */
  published: number
  /** The newest of them open now (not expired, not paused), or null. */
  open_id: string | null
  /** Members of the room who completed one of them (the student's view: 1 when the student did). */
  completed: number
}

export interface FollowingRoom {
  id: string
  name: string
  member_count: number
  closed_at: string | null
}

export interface StudentTrack {
  room_id: string
  room_name: string
  track_id: string
  track_title: string
  items: TrackProgressItem[]
}
