import { Hono } from 'hono'
import type { ErrorItem } from '#shared/schemas/error'
import { GoalInput, GoalStatusInput, PublishGoalInput, SHOWN_STATUS_SQL, goalEntity, type Goal, type GoalRow } from '#shared/schemas/achievement'
import { Id } from '#shared/schemas/tms/common'
import {
  allowedAwardKinds,
  awardsOf,
  goalChildStatements,
  goalGrantsByRoom,
  goalStatusStatement,
  missingIds,
  publishDuePeriods,
  publishStatements,
  publishedCount,
  shownStatus,
  studentAwards,
  titleChoices,
} from '../../db/achievement'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { getRawRow, realmScope, decodeRow } from '../../db/entity-rows'
import { groupChoices, roomChoices } from '../../db/rooms'
import type { Auth } from '../../db/sessions'
import { listCategories } from '../../db/tms'
import { crud, born, stamp } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { refuse, ruleError } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * Goals (issue 19; seed 001 §3 "Goal", "Award", §4, §5 "Goals"; `achievement_goal_*`): goal models (type 'model')
 * created and edited here, published goals (type 'goal') made by publishing a model; a model with published goals,
 * and a published goal (but its status), cannot be changed (§4, the §8 blocked message); objectives, categories,
 * targets and award kinds are checked in the realm.
 */
async function checkGoal(c: Ctx, auth: Auth, body: GoalInput) {
  const db = c.env.DB
  const items: ErrorItem[] = []
  for (const id of await missingIds(db, auth.realm, 'achievement_objective', body.objective_ids))
    items.push(ruleError(`objective_ids.${body.objective_ids.indexOf(id)}`, 'achievement.error.unknown_objective', id))
  for (const key of ['activity_categories', 'question_categories'] as const)
    for (const id of await missingIds(db, auth.realm, 'tms_category', body[key]))
      items.push(ruleError(`${key}.${body[key].indexOf(id)}`, 'achievement.error.unknown_category', id))
  items.push(...(await targetProblems(db, auth.realm, body.targets)))
  const kinds = await allowedAwardKinds(db, auth.realm)
  body.awards.forEach((a, i) => {
    if (!kinds.includes(a.kind)) items.push(ruleError(`awards.${i}.kind`, 'achievement.error.award_kind_not_allowed', a.kind))
    a.progress.forEach((p, j) => {
      if (!body.objective_ids.includes(p.objective_id))
        items.push(ruleError(`awards.${i}.progress.${j}.objective_id`, 'achievement.error.award_objective_not_in_goal', p.objective_id))
    })
  })
  refuse(items)
}

async function targetProblems(db: D1Database, realm: string, targets: GoalInput['targets']): Promise<ErrorItem[]> {
  const rooms = targets.filter((t) => t.kind === 'room').map((t) => t.id)
  const groups = targets.filter((t) => t.kind === 'group').map((t) => t.id)
  const missing = new Set([
    ...(await missingIds(db, realm, 'room', rooms)).map((id) => `room:${id}`),
    ...(await missingIds(db, realm, 'room_group', groups)).map((id) => `group:${id}`),
  ])
  return targets.flatMap((t, i) => (missing.has(`${t.kind}:${t.id}`) ? [ruleError(`targets.${i}.id`, 'achievement.error.unknown_target', t.id)] : []))
}

/** Refuses changing a model with published goals, or a published goal (§4; its status has its own call). */
async function refuseBlocked(c: Ctx, auth: Auth, existing: GoalRow) {
  if (existing.type === 'goal') throw apiError(409, 'goal_published', 'achievement.error.goal_published', 'id', existing.id)
  const n = await publishedCount(c.env.DB, auth.realm, existing.id)
  if (n > 0) throw apiError(409, 'goal_blocked', 'achievement.error.goal_blocked', 'id', n)
}

const expand = async (c: Ctx, row: Record<string, unknown>): Promise<Goal> => {
  const realm = String(row.realm)
  const status = await shownStatus(c.env.DB, realm, String(row.id))
  const awards = await awardsOf(c.env.DB, realm, String(row.id))
  return { ...row, shown_status: status ?? row.status, awards, published_count: await publishedCount(c.env.DB, realm, String(row.id)) } as Goal
}

/** The validated awards of the write in progress (crud's `statements` sees the stored values, which hold none). */
const pendingAwards = new WeakMap<object, GoalInput['awards']>()

const ownAwards = async (c: Ctx, realm: string, goalId: string) => new Set((await awardsOf(c.env.DB, realm, goalId)).map((a) => a.id))

const goals = crud(goalEntity, {
  permissions: {
    list: 'achievement_goal_list',
    get: ['achievement_goal_get', 'achievement_goal_edit'],
    create: 'achievement_goal_create',
    edit: 'achievement_goal_edit',
    delete: 'achievement_goal_delete',
  },
  create: GoalInput,
  update: GoalInput,
  computed: {
    shown_status: SHOWN_STATUS_SQL,
    published_count: 'SELECT COUNT(*) FROM achievement_goal p WHERE p.realm = "achievement_goal".realm AND p.model_id = "achievement_goal".id',
  },
  beforeCreate: async (c, auth, body) => {
    await checkGoal(c, auth, body)
    const { awards, ...row } = body
    pendingAwards.set(c.req.raw, awards)
    return { ...row, ...born(auth), type: 'model', model_id: null }
  },
  beforeUpdate: async (c, auth, body, existing) => {
    await refuseBlocked(c, auth, existing)
    await checkGoal(c, auth, body)
    const { awards, ...row } = body
    pendingAwards.set(c.req.raw, awards)
    return { ...row, ...stamp(auth) }
  },
  beforeDelete: async (c, auth, existing) => {
    if (existing.type === 'model') await refuseBlocked(c, auth, existing)
  },
  statements: async (c, auth, write) => {
    const awards = pendingAwards.get(c.req.raw)
    if (write.action === 'delete' || !awards) return []
    return goalChildStatements(
      c.env.DB,
      auth.realm,
      write.id,
      { objective_ids: write.values.objective_ids as string[], awards },
      await ownAwards(c, auth.realm, write.id),
    )
  },
  expand,
})

async function loadGoal(c: Ctx, auth: Auth): Promise<GoalRow> {
  const id = parse(Id, pathParam(c, 'id'))
  const raw = await getRawRow(c.env.DB, goalEntity, realmScope(goalEntity, auth), id)
  if (!raw) throw apiError(404, 'not_found', `Goal ${id} was not found.`, 'id', id)
  return decodeRow(goalEntity, raw)
}

export const achievementGoal = new Hono<AppEnv>()
  .post(
    '/:id/publish',
    guardedJson({ all: ['achievement_goal_create'] }, PublishGoalInput, async (c, auth, body) => {
      const db = c.env.DB
      const model = await loadGoal(c, auth)
      if (model.type !== 'model') throw apiError(422, 'not_a_model', 'achievement.error.not_a_model', 'id', model.id)
      // Seed 001 §5: the publication's dates cannot be in the past.
      const today = new Date().toISOString().slice(0, 10)
      refuse([
        ...(body.start_date < today ? [ruleError('start_date', 'achievement.error.date_in_past', body.start_date)] : []),
        ...(await targetProblems(db, auth.realm, body.targets)),
      ])
      const { id, statements } = publishStatements(db, { ...model, awards: await awardsOf(db, auth.realm, model.id) }, body, auth.nick)
      await runBatch(db, [
        ...statements,
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'create',
          entity: 'achievement_goal',
          entityId: id,
          after: { model_id: model.id, ...body },
          requestId: c.get('requestId'),
        }),
      ])
      // The first period is published at once when it has begun (the scheduled job publishes the next ones).
      await publishDuePeriods(db, today, auth.realm)
      const raw = await getRawRow(db, goalEntity, realmScope(goalEntity, auth), id)
      return c.json(await expand(c, decodeRow(goalEntity, raw!)), 201)
    }),
  )
  .put(
    '/:id/status',
    guardedJson({ all: ['achievement_goal_edit'] }, GoalStatusInput, async (c, auth, body) => {
      const db = c.env.DB
      const goal = await loadGoal(c, auth)
      if (goal.type !== 'goal') throw apiError(422, 'goal_not_published', 'achievement.error.goal_not_published', 'id', goal.id)
      await runBatch(db, [
        goalStatusStatement(db, auth.realm, goal.id, body.status, stamp(auth).updated_at, auth.nick),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'achievement_goal',
          entityId: goal.id,
          before: { status: goal.status },
          after: body,
          requestId: c.get('requestId'),
        }),
      ])
      const raw = await getRawRow(db, goalEntity, realmScope(goalEntity, auth), goal.id)
      return c.json(await expand(c, decodeRow(goalEntity, raw!)))
    }),
  )
  .get(
    '/:id/grants',
    guarded({ any: ['achievement_goal_get', 'achievement_goal_edit'] }, async (c, auth) => {
      const goal = await loadGoal(c, auth)
      return c.json({ items: await goalGrantsByRoom(c.env.DB, auth.realm, goal.id) })
    }),
  )
  .route('/', goals)

/**
 * GET /achievement/options: what goal and track forms offer — rooms, room groups, task categories, objectives, the
 * realm's award kinds, task models, lessons (models), survey models.
 */
export const achievementOptions = new Hono<AppEnv>().get(
  '/',
  guarded({ any: ['achievement_goal_create', 'achievement_goal_edit', 'achievement_track_create', 'achievement_track_edit'] }, async (c, auth) => {
    const db = c.env.DB
    const [rooms, groups, categories, objectives, kinds, models, lessons, surveys] = await Promise.all([
      roomChoices(db, auth.realm),
      groupChoices(db, auth.realm),
      listCategories(db, auth.realm),
      titleChoices(db, auth.realm, 'achievement_objective'),
      allowedAwardKinds(db, auth.realm),
      titleChoices(db, auth.realm, 'tms_model'),
      titleChoices(db, auth.realm, 'lesson_model'),
      titleChoices(db, auth.realm, 'survey_model'),
    ])
    return c.json({
      rooms,
      groups: groups.map(({ id, name }) => ({ id, name })),
      categories: categories.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
      objectives,
      award_kinds: kinds,
      task_models: models,
      lessons,
      survey_models: surveys,
    })
  }),
)

/** GET /achievement/mine: the signed-in student's awards (any signed-in user sees only their own). */
export const achievementMine = new Hono<AppEnv>().get(
  '/',
  guarded({}, async (c, auth) => c.json({ items: await studentAwards(c.env.DB, auth.realm, auth.nick) })),
)
