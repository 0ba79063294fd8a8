import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { Category } from '#shared/schemas/tms/category'
import type { ErrorItem } from '#shared/schemas/error'
import { LessonInput, LessonModelUpdate, LessonPublishInput, LessonUpdate } from '#shared/schemas/lesson/lesson'
import type { ListSpec } from '~/lib/lists'
import { apiData, type RealmApi, validBody } from '~/server/api.server'
import { loadList } from '~/server/list.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

/** What the lesson editor offers: categories, task models, assets and personas, each when the user may list them. */
export async function lessonRefs(api: RealmApi, user: SessionUser) {
  const p = user.permissions
  const all = { query: { limit: 1000 } }
  const list = <T>(allowed: boolean | undefined, path: string) =>
    allowed ? apiData(api.entity<T>(path).index.$get(all)).then((r) => r.items) : Promise.resolve([] as T[])
  const [categories, taskModels, assets, personas] = await Promise.all([
    list<Category>(p.tms_category_list, 'tms/category'),
    p.tms_model_list ? apiData(api.tms.model.$get(all)).then((r) => r.items) : Promise.resolve([]),
    list<{ id: string; name: string }>(p.asset_asset_list, 'asset'),
    list<{ id: string; name: string }>(p.persona_persona_list, 'personai/persona'),
  ])
  return {
    categories: categories.map(({ id, name, parent_id, required, selectable, enabled }) => ({ id, name, parent_id, required, selectable, enabled })),
    taskModels: taskModels.map(({ id, title }) => ({ id, title })),
    assets: assets.map(({ id, name }) => ({ id, name })),
    personas: personas.map(({ id, name }) => ({ id, name })),
  }
}

export const invalid = (field: string) =>
  data({ errors: [{ field, cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })

export function jsonField(form: FormData, name: string): unknown {
  try {
    return JSON.parse(String(form.get(name) ?? ''))
  } catch {
    return undefined
  }
}

/** The editors' action: saves a model (create when `lessonId` is `new`) or a published lesson, back to its edit screen. */
export async function lessonEditorAction(request: Request, context: AppLoadContext, kind: 'model' | 'lesson', lessonId: string) {
  const { api } = await requireRoute(request, context, kind === 'model' ? 'lesson.model.edit' : 'lesson.lesson.edit')
  const body = jsonField(await request.formData(), 'lesson')
  if (body === undefined) return invalid('lesson')
  return apiResult(async () => {
    const saved =
      kind === 'lesson'
        ? await apiData(api.lesson.lesson[':id'].$put({ param: { id: lessonId }, json: validBody(LessonUpdate, body) }))
        : lessonId === 'new'
          ? await apiData(api.lesson.model.$post({ json: validBody(LessonInput, body) }))
          : await apiData(api.lesson.model[':id'].$put({ param: { id: lessonId }, json: validBody(LessonModelUpdate, body) }))
    throw redirect(`/lesson/${kind}/edit/${saved.id}`, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'lesson.editor.saved' }) } })
  })
}

/** Publishes a model to its targets and dates (`publication` as JSON). */
export async function lessonPublishAction(request: Request, context: AppLoadContext) {
  const { api } = await requireRoute(request, context, 'lesson.lesson.edit')
  const body = jsonField(await request.formData(), 'publication')
  if (body === undefined) return invalid('publication')
  return apiResult(async () => {
    const lesson = await apiData(api.lesson.lesson.$post({ json: validBody(LessonPublishInput, body) }))
    throw redirect('/lesson/lesson', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: `lesson.publish.done_${lesson.status}` }) } })
  })
}

export const ID = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/))

/** The lists' delete action (after the typed confirmation). */
export async function lessonDeleteAction(request: Request, context: AppLoadContext, kind: 'model' | 'lesson') {
  const { api } = await requireRoute(request, context, kind === 'model' ? 'lesson.model.list' : 'lesson.lesson.list')
  const id = v.safeParse(ID, (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    if (kind === 'model') await api.lesson.model[':id'].$delete({ param: { id: id.output } })
    else await api.lesson.lesson[':id'].$delete({ param: { id: id.output } })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

/**
 * A list of publications (lessons, surveys) with its room filter's choices: the realm's rooms when the user may list
 * them (none otherwise: the filter then offers nothing).
 */
export async function listWithRooms<Row>(request: Request, context: AppLoadContext, spec: ListSpec<Row>, route: string) {
  const { page, query, user } = await loadList(request, context, spec)
  const { api } = await requireRoute(request, context, route)
  const rooms = user.permissions.room_room_list
    ? (await apiData(api.entity<{ id: string; name: string }>('room/room').index.$get({ query: { limit: 1000 } }))).items
    : []
  return { page, query, user, rooms: rooms.map((r) => ({ label: r.name, value: r.id })) }
}
