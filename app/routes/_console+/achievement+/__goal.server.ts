import { data, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { GoalInput, GoalStatusInput, PublishGoalInput, type Goal } from '#shared/schemas/achievement'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiAction, apiResult, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { goalList } from '~/lists/achievement-goal'
import { periodOptions, prepareGoal, preparePublish, publishFields } from './__goal'

export interface GoalOptions {
  rooms: { id: string; name: string }[]
  groups: { id: string; name: string }[]
  categories: { id: string; name: string; parent_id: string | null }[]
  objectives: { id: string; title: string }[]
  award_kinds: readonly string[]
}

/** A goal list (models or published goals) with the user's rights. */
export async function goalListLoader(request: Request, context: AppLoadContext, type: 'model' | 'goal') {
  const { page, query, user } = await loadList(request, context, goalList(type))
  const p = user.permissions
  return { type, page, query, can: { create: !!p.achievement_goal_create, edit: !!p.achievement_goal_edit, remove: !!p.achievement_goal_delete } }
}

const ID = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/))

/** The lists' delete action. */
export async function goalDeleteAction(request: Request, context: AppLoadContext, route: string) {
  const { api } = await requireRoute(request, context, route)
  const id = v.safeParse(ID, (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    await apiData(api.entity('achievement/goal')[':id'].$delete({ param: { id: id.output } }))
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

/** The create/edit screen: the goal (edit), what the form offers, the grants per room of a published goal. */
export async function goalScreen(request: Request, context: AppLoadContext, route: 'goal.create' | 'goal.edit', goalId?: string) {
  const { api, realm } = await requireRoute(request, context, route)
  const goal = goalId ? await orErrorResponse(apiData(api.entity<Goal>('achievement/goal')[':id'].$get({ param: { id: goalId } }))) : null
  const options = await orErrorResponse(apiData(api.achievement.options.$get()))
  const grants = goal?.type === 'goal' ? (await apiData(api.achievement.goal[':id'].grants.$get({ param: { id: goal.id } }))).items : []
  return { goal, options: options as GoalOptions, grants, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

/** Saves a model (create, or edit of a model), publishes it (`intent=publish`), or changes a published goal's status. */
export async function goalAction(request: Request, context: AppLoadContext, route: 'goal.create' | 'goal.edit', goalId?: string) {
  const intent = new URL(request.url).searchParams.get('intent')
  if (goalId && intent === 'publish') {
    const { options } = await goalScreen(request, context, route, goalId)
    const targets = [
      ...options.rooms.map((r) => ({ value: `room:${r.id}`, label: r.name })),
      ...options.groups.map((g) => ({ value: `group:${g.id}`, label: g.name })),
    ]
    return apiAction(request, context, {
      route,
      schema: PublishGoalInput,
      fields: publishFields(targets, periodOptions),
      prepare: preparePublish,
      call: (api, json) => apiData(api.achievement.goal[':id'].publish.$post({ param: { id: goalId }, json })),
      redirect: (saved) => `/achievement/goal/edit/${saved.id}`,
      flash: 'achievement.published',
    })
  }
  if (goalId && intent === 'status')
    return apiAction(request, context, {
      route,
      schema: GoalStatusInput,
      call: (api, json) => apiData(api.achievement.goal[':id'].status.$put({ param: { id: goalId }, json })),
      redirect: `/achievement/goal/edit/${goalId}`,
      flash: 'achievement.status_saved',
    })
  return apiAction(request, context, {
    route,
    schema: GoalInput,
    prepare: prepareGoal,
    call: (api, json) => {
      const list = api.entity<Goal>('achievement/goal')
      return goalId ? apiData(list[':id'].$put({ param: { id: goalId }, json })) : apiData(list.index.$post({ json }))
    },
    redirect: (saved) => `/achievement/goal/edit/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'tms.saved', values: { name: saved.title } }),
  })
}
