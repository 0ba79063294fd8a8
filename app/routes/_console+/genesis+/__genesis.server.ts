import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { LessonJobCreate, LessonSourceQuery, ModelGenerate, type GenesisJob } from '#shared/schemas/lesson/genesis'
import { issuesToErrors } from '#shared/schemas/error'
import { apiData, RealmApiError } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

/**
 * The generation screens' server half: their options (settings, prices, configurations and agents the user may
 * pick) and the job calls. The browser posts JSON intents; every answer is `{ ok, job | draft }` or `{ ok: false, errors }`.
 */
export async function generationOptions(request: Request, context: AppLoadContext, route: 'genesis.lesson_model' | 'genesis.model') {
  const { api } = await requireRoute(request, context, route)
  return apiData(api.genesis.options.$get())
}

/**
 * The lesson screen's loader: its options, the user's recent jobs, and the job named by `?job=` (so a reload, or
 * coming back later, shows the running or ended generation again); a job that is not the user's is `job_missing`.
 */
export async function lessonGenerationData(request: Request, context: AppLoadContext) {
  const { api } = await requireRoute(request, context, 'genesis.lesson_model')
  const id = new URL(request.url).searchParams.get('job')
  const [options, recent, job] = await Promise.all([
    apiData(api.genesis.options.$get()),
    apiData(api.genesis.job.$get()),
    id
      ? apiData(api.genesis.job[':id'].$get({ param: { id } })).catch((err: unknown) => {
          if (err instanceof RealmApiError && (err.status === 404 || err.status === 400)) return null
          throw err
        })
      : null,
  ])
  return { ...options, recent: recent.items, job: job as GenesisJob | null, job_missing: Boolean(id && !job) }
}

const Intent = v.variant('intent', [
  v.object({ intent: v.literal('start'), body: v.unknown() }),
  v.object({ intent: v.literal('run'), job: v.string() }),
  v.object({ intent: v.literal('cancel'), job: v.string() }),
  v.object({ intent: v.literal('lesson'), job: v.string() }),
  v.object({ intent: v.literal('model'), body: v.unknown() }),
  v.object({ intent: v.literal('lessons'), query: v.unknown() }),
])

const failed = (errors: { field: string; cause: string; value: unknown; message: string }[]) => ({ ok: false as const, errors })

export async function generationAction(request: Request, context: AppLoadContext, route: 'genesis.lesson_model' | 'genesis.model') {
  const { api } = await requireRoute(request, context, route)
  const parsed = v.safeParse(Intent, await request.json().catch(() => null))
  if (!parsed.success) return failed(issuesToErrors(parsed.issues))
  const i = parsed.output
  try {
    if (i.intent === 'start') {
      const body = v.safeParse(LessonJobCreate, i.body)
      if (!body.success) return failed(issuesToErrors(body.issues))
      return { ok: true as const, job: await apiData(api.genesis.lesson_model.job.$post({ json: body.output })) }
    }
    if (i.intent === 'model') {
      const body = v.safeParse(ModelGenerate, i.body)
      if (!body.success) return failed(issuesToErrors(body.issues))
      return { ok: true as const, model: await apiData(api.genesis.model.$post({ json: body.output })) }
    }
    if (i.intent === 'lessons') {
      const query = v.safeParse(LessonSourceQuery, i.query)
      if (!query.success) return failed(issuesToErrors(query.issues))
      return { ok: true as const, lessons: (await apiData(api.genesis.lessons.$get({ query: query.output }))).items }
    }
    if (i.intent === 'lesson') {
      const opened = await apiData(api.genesis.job[':id'].lesson.$post({ param: { id: i.job } }))
      return redirect(`/lesson/model/edit/${opened.lesson_id}`)
    }
    if (i.intent === 'run') return { ok: true as const, job: await apiData(api.genesis.job[':id'].run.$post({ param: { id: i.job } })) }
    return { ok: true as const, job: await apiData(api.genesis.job[':id'].cancel.$post({ param: { id: i.job } })) }
  } catch (err) {
    if (err instanceof RealmApiError) return failed(err.errors)
    throw err
  }
}
