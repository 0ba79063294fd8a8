import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { formToValues, type FieldSpec } from '~/lib/form-fields'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmApiError } from './api.server'
import { requireRoute } from './auth.server'
import { setFlash } from './flash.server'

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo'

/**
 * The action of a plain create/edit form: behind the route's guard, the form data becomes the API's JSON by the same
 * field specs the screen uses; the API validates; errors come back to the form, success returns to the list.
 */
export async function saveForm(
  request: Request,
  context: AppLoadContext,
  opts: { route: string; fields: FieldSpec[]; apiPath: string; method: 'post' | 'put'; back: string; flash: string; extra?: Record<string, unknown> },
) {
  const { api, realm } = await requireRoute(request, context, opts.route)
  const body = { ...formToValues(await request.formData(), opts.fields, realm.config?.time_zone ?? DEFAULT_TIME_ZONE), ...opts.extra }
  try {
    if (opts.method === 'post') await api.post(opts.apiPath, body)
    else await api.put(opts.apiPath, body)
  } catch (err) {
    if (err instanceof RealmApiError) return data({ errors: err.errors }, { status: err.status })
    throw err
  }
  throw redirect(opts.back, { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: opts.flash }) } })
}

/** The delete action of a list screen: the row's id from the form, the API's answer as `{ ok, errors }`. */
export async function deleteRow(request: Request, context: AppLoadContext, route: string, apiPath: (id: string) => string) {
  const { api } = await requireRoute(request, context, route)
  const id = String((await request.formData()).get('id') ?? '')
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(id))
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: id, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })
  try {
    await api.delete(apiPath(id))
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
  return { ok: true, errors: [] as ErrorItem[] }
}
