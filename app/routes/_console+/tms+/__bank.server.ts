import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { BankClassify, type BankItem } from '#shared/schemas/tms/bank'
import type { Category } from '#shared/schemas/tms/category'
import { ModelInput, type Model } from '#shared/schemas/tms/model'
import { apiData, type RealmApi, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/))
const Ids = v.pipe(v.array(Id), v.minLength(1), v.maxLength(50))

const fail = (intent: string, errors: ErrorItem[], status: number) => data({ ok: false, intent, errors }, { status })
const invalid = (field: string, message = 'validation.id'): ErrorItem[] => [{ field, cause: 'invalid', value: null, message }]

/** A bank question as a model question: a copy, linked back to its source by `bank_id` (seed 001 §3). */
export function bankCopy({
  id,
  type,
  statement,
  comment,
  score,
  required,
  shuffle,
  partial_score,
  categories,
  media_type,
  media_url,
  options,
  extra_fields,
}: BankItem) {
  return { type, statement, comment, score, required, shuffle, partial_score, categories, media_type, media_url, options, extra_fields, bank_id: id }
}

/** Selectable task categories and the models the user may add questions to, for the bank screens. */
export async function bankRefs(api: RealmApi, user: SessionUser) {
  const p = user.permissions
  const [categories, models] = await Promise.all([
    p.tms_category_list
      ? apiData(api.entity<Category>('tms/category').index.$get({ query: { limit: 1000 } })).then((r) => r.items)
      : Promise.resolve([] as Category[]),
    p.tms_model_list && p.tms_model_edit
      ? apiData(api.tms.model.$get({ query: { limit: 100, order: '-updated_at' } })).then((r) => r.items)
      : Promise.resolve([] as Model[]),
  ])
  return {
    categories: categories.filter((c) => c.enabled && c.selectable).map((c) => ({ id: c.id, name: c.name })),
    models: models.map((m) => ({ id: m.id, title: m.title })),
  }
}

/**
 * The bank list's actions: `delete` one question; `add_to_model` appends copies of the chosen questions to a model
 * (the model's own rules apply, and a model with published tasks gets a new version, as any edit); `classify` gives
 * the chosen questions of the chosen types one topic (the API checks: at least one type, a complete topic).
 */
export async function bankListAction(request: Request, context: AppLoadContext) {
  const { api } = await requireRoute(request, context, 'tms.question_bank.list')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? 'delete')
  return apiResult(
    async () => {
      if (intent === 'add_to_model') {
        const modelId = v.safeParse(Id, form.get('model'))
        if (!modelId.success) return fail(intent, invalid('model'), 400)
        let raw: unknown
        try {
          raw = JSON.parse(String(form.get('ids') ?? '[]'))
        } catch {
          raw = null
        }
        const ids = v.safeParse(Ids, raw)
        if (!ids.success) return fail(intent, invalid('ids'), 400)
        const model = await apiData(api.tms.model[':id'].$get({ param: { id: modelId.output } }))
        const items = await Promise.all(ids.output.map((id) => apiData(api.tms.question_bank[':id'].$get({ param: { id } }))))
        const {
          id: _id,
          realm: _realm,
          version: _version,
          created_at: _c,
          created_by: _cb,
          updated_at: _u,
          updated_by: _ub,
          ...rest
        } = model as Model & Record<string, unknown>
        const saved = await apiData(
          api.tms.model[':id'].$put({
            param: { id: model.id },
            json: validBody(ModelInput, { ...rest, questions: [...model.questions, ...items.map(bankCopy)] }),
          }),
        )
        throw redirect(`/tms/model/edit/${saved.id}`, {
          headers: {
            'Set-Cookie': await setFlash({ kind: 'success', message: 'tms.bank.added_to_model', values: { count: String(items.length), title: saved.title } }),
          },
        })
      }
      if (intent === 'classify') {
        let ids: unknown
        try {
          ids = JSON.parse(String(form.get('ids') ?? '[]'))
        } catch {
          ids = null
        }
        if (!v.is(Ids, ids)) return fail(intent, invalid('ids'), 400)
        const grade = Number(form.get('grade_id'))
        const text = (k: string) => String(form.get(k) ?? '')
        const result = await apiData(
          api.tms.question_bank.classify.$post({
            json: validBody(BankClassify, {
              types: form.getAll('types').map(String),
              ids,
              grade_id: Number.isInteger(grade) && grade > 0 ? grade : null,
              subject_id: text('subject_id'),
              standard_id: text('standard_id'),
              descriptor_id: text('descriptor_id'),
              curriculum: text('curriculum'),
            }),
          }),
        )
        return { ok: true, intent, errors: [] as ErrorItem[], updated: result.updated }
      }
      const id = v.safeParse(Id, form.get('id'))
      if (!id.success) return fail(intent, invalid('id'), 400)
      await api.tms.question_bank[':id'].$delete({ param: { id: id.output } })
      return { ok: true, intent, errors: [] as ErrorItem[] }
    },
    { intent },
  )
}

/** The bank editor's action: the question and its classification (JSON) go to the API; errors come back to the editor. */
export async function bankSaveAction(request: Request, context: AppLoadContext, route: 'tms.question_bank.create' | 'tms.question_bank.edit', id?: string) {
  const { api } = await requireRoute(request, context, route)
  let body: unknown
  try {
    body = JSON.parse(String((await request.formData()).get('item') ?? ''))
  } catch {
    return data({ errors: invalid('item', 'errors.invalid') }, { status: 400 })
  }
  return apiResult(async () => {
    if (id) await api.tms.question_bank[':id'].$put({ param: { id }, json: body })
    else await api.tms.question_bank.$post({ json: body })
    throw redirect('/tms/question_bank', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'tms.saved' }) } })
  })
}
