import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { ErrorItem } from '#shared/schemas/error'
import { ModelExport } from '#shared/schemas/tms/model'
import { apiData, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

const ID = /^[A-Za-z0-9_-]{1,40}$/

/** The model list's actions: duplicate, delete (refused with the blocked message while published), import. */
export async function modelListAction(request: Request, context: AppLoadContext) {
  const { api } = await requireRoute(request, context, 'tms.model.list')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? 'delete')
  const id = String(form.get('id') ?? '')
  const fail = (errors: ErrorItem[], status: number) => data({ ok: false, intent, errors }, { status })
  return apiResult(
    async () => {
      if (intent === 'import') {
        let doc: unknown
        try {
          doc = JSON.parse(String(form.get('document') ?? ''))
        } catch {
          return fail([{ field: 'document', cause: 'invalid', value: null, message: 'validation.tms.export_format' }], 400)
        }
        const created = await apiData(api.tms.model.import.$post({ json: validBody(ModelExport, doc) }))
        throw redirect(`/tms/model/edit/${created.id}`, {
          headers: {
            'Set-Cookie': await setFlash({
              kind: 'success',
              message: created.dropped_categories.length ? 'tms.model.imported_dropped' : 'tms.model.imported',
              values: { count: String(created.dropped_categories.length) },
            }),
          },
        })
      }
      if (!ID.test(id)) return fail([{ field: 'id', cause: 'invalid', value: id, message: 'validation.id' }], 400)
      if (intent === 'duplicate') {
        const copy = await apiData(api.tms.model[':id'].duplicate.$post({ param: { id }, json: { title: String(form.get('title') ?? '') || undefined } }))
        throw redirect(`/tms/model/edit/${copy.id}`, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'tms.model.duplicated' }) } })
      }
      await api.tms.model[':id'].$delete({ param: { id } })
      return { ok: true, intent, errors: [] as ErrorItem[] }
    },
    { intent },
  )
}
