import { data, type AppLoadContext } from '@remix-run/cloudflare'
import type * as v from 'valibot'
import type { FieldSpec } from '~/lib/form-fields'
import type { ErrorItem } from '#shared/schemas/error'
import type { RealmApi } from './api.server'
import { requireRoute } from './auth.server'
import { apiAction, apiResult } from './api-action.server'

export { DEFAULT_TIME_ZONE } from './api-action.server'

/**
 * The action of a plain create/edit form (declared `FieldSpec`s): `apiAction` with the form's schema, the body
 * sent to `apiPath`, success back to the list with a flash.
 */
export function saveForm<S extends v.GenericSchema>(
  request: Request,
  context: AppLoadContext,
  opts: {
    route: string
    schema: S
    fields: FieldSpec[]
    /** The API call that saves the form's values, e.g. `(api, json) => api.tms.category.$post({ json })`. */
    save: (api: RealmApi, body: Record<string, unknown>) => Promise<unknown>
    back: string
    flash: string
    extra?: Record<string, unknown>
  },
) {
  return apiAction(request, context, {
    route: opts.route,
    schema: opts.schema,
    fields: opts.fields,
    prepare: opts.extra ? (values) => ({ ...values, ...opts.extra }) : undefined,
    call: (api, body) => opts.save(api, body as Record<string, unknown>),
    redirect: opts.back,
    flash: opts.flash,
  })
}

/**
 * A row action's API call (a list's delete, a statement line's reversal) answered for the screen's fetcher as
 * `{ ok, errors, result }`; the API's refusal keeps its status and envelope (the screen toasts it).
 */
export function rowResult<T>(call: Promise<T>) {
  return apiResult(async () => ({ ok: true as const, errors: [] as ErrorItem[], result: await call }), { result: undefined })
}

/** The delete action of a list screen: the row's id from the form, the API's answer as `{ ok, errors }`. */
export async function deleteRow(request: Request, context: AppLoadContext, route: string, remove: (api: RealmApi, id: string) => Promise<unknown>) {
  const { api } = await requireRoute(request, context, route)
  const id = String((await request.formData()).get('id') ?? '')
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(id))
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: id, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })
  return rowResult(remove(api, id).then(() => null))
}
