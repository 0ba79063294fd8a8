import type { Category } from '#shared/schemas/tms/category'
import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import type { Genre } from '#shared/entities/tms-genre'
import { ModelInput } from '#shared/schemas/tms/model'
import type { Skill } from '#shared/entities/tms-assessed-skill'
import { apiData, type RealmApi, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { bankCopy } from './__bank.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

/** What the model editor offers besides the model: categories, genres, skills, each when the user may list them. */
export async function editorRefs(api: RealmApi, user: SessionUser) {
  const p = user.permissions
  const all = { query: { limit: 1000 } }
  const [categories, genres, skills] = await Promise.all([
    p.tms_category_list ? apiData(api.entity<Category>('tms/category').index.$get(all)).then((r) => r.items) : [],
    p.tms_genre_list ? apiData(api.entity<Genre>('tms/genre').index.$get(all)).then((r) => r.items) : [],
    p.tms_assessed_skill_list ? apiData(api.entity<Skill>('tms/assessed_skill').index.$get(all)).then((r) => r.items) : [],
  ])
  return {
    categories: categories.map(({ id, name, parent_id, required, selectable, enabled }) => ({ id, name, parent_id, required, selectable, enabled })),
    genres: genres.map(({ id, name, min_words, max_words }) => ({ id, name, min_words, max_words })),
    skills: skills.map(({ id, name, type }) => ({ id, name, type })),
    canUseBank: Boolean(p.tms_question_bank_list && (p.tms_question_bank_get || p.tms_question_bank_edit)),
  }
}

const Ids = v.pipe(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/))), v.maxLength(50))

/**
 * The model editor's action: `save` sends the model (JSON) to the API (create or update) and returns to the edit
 * screen with a message; `bank` answers bank questions as copies linked back to their source.
 */
export async function modelEditorAction(request: Request, context: AppLoadContext, route: 'tms.model.create' | 'tms.model.edit', modelId?: string) {
  const { api } = await requireRoute(request, context, route)
  const form = await request.formData()
  if (form.get('intent') === 'bank') {
    const ids = v.safeParse(Ids, JSON.parse(String(form.get('ids') ?? '[]')))
    if (!ids.success)
      return data({ errors: [{ field: 'ids', cause: 'invalid', value: null, message: 'validation.id' }] as ErrorItem[], bank: null }, { status: 400 })
    return apiResult(
      async () => {
        const items = await Promise.all(ids.output.map((id) => apiData(api.tms.question_bank[':id'].$get({ param: { id } }))))
        const bank = items.map(bankCopy)
        return { errors: [] as ErrorItem[], bank }
      },
      { bank: null },
    )
  }
  let body: unknown
  try {
    body = JSON.parse(String(form.get('model') ?? ''))
  } catch {
    return data({ errors: [{ field: 'model', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[], bank: null }, { status: 400 })
  }
  return apiResult(async () => {
    const json = validBody(ModelInput, body)
    const saved = modelId ? await apiData(api.tms.model[':id'].$put({ param: { id: modelId }, json })) : await apiData(api.tms.model.$post({ json }))
    throw redirect(`/tms/model/edit/${saved.id}`, {
      headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'tms.editor.saved', values: { version: String(saved.version) } }) },
    })
  })
}
