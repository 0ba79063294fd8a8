import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { RouteError } from '~/components/shell/route-error'
import { FormScreen } from '~/components/ui/form-screen'
import { entityAtPath, formFieldsOf, pageTitle } from '~/lib/entity-screens'
import type { RealmApi } from '~/server/api.server'
import { apiData, orErrorResponse } from '~/server/api.server'
import type { SessionUser } from '~/server/auth.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { apiPathOf, type PlainEntity } from '#shared/entities/define'
import { plainEntity } from '#shared/entities/index'

/**
 * The create and edit screens of every plain entity (app/shared/entities/), on the form kit: vite.config.ts mounts
 * this module at each declaration's `create` and `edit/:param` paths; the entity is the one declared at the path.
 */
function screenOf(request: Request, params: Record<string, string | undefined>) {
  const e = entityAtPath(new URL(request.url).pathname)
  if (!e) throw data(null, { status: 404 })
  const id = params[e.route.param]
  return { e, id, route: `${e.route.id}.${id === undefined ? 'create' : 'edit'}` }
}

/** Options of the fields whose options come from another list (read only when the user may list it). */
async function optionsOf(e: PlainEntity, api: RealmApi, user: SessionUser, self?: string) {
  const out: Record<string, { value: string; label: string }[]> = {}
  for (const [name, f] of Object.entries(e.fields)) {
    const from = f.form?.optionsFrom
    if (!from) continue
    if (!user.permissions[from.permission]) {
      out[name] = []
      continue
    }
    const page = await apiData(api.entity(from.api).index.$get({ query: { ...from.query, limit: 1000 } }))
    out[name] = page.items
      .filter(
        (r) => String(r[from.value]) !== self && (!from.topLevel || r[from.topLevel] === null || r[from.topLevel] === undefined || r[from.topLevel] === ''),
      )
      .map((r) => ({ value: String(r[from.value]), label: String(r[from.label]) }))
  }
  return out
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { e, id, route } = screenOf(request, params)
  const { api, user, realm } = await requireRoute(request, context, route)
  const row = id === undefined ? null : await orErrorResponse(apiData(api.entity(apiPathOf(e, realm.code ?? ''))[':id'].$get({ param: { id } })))
  const title = pageTitle(e, id === undefined ? 'create' : 'edit')
  return { entity: e.name, title, row, options: await optionsOf(e, api, user, id), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { e, id, route } = screenOf(request, params)
  const { api, user, realm } = await requireRoute(request, context, route)
  const path = apiPathOf(e, realm.code ?? '')
  return apiAction(request, context, {
    route,
    schema: e.input,
    fields: formFieldsOf(e, await optionsOf(e, api, user, id)),
    call: (api, body) =>
      id === undefined ? apiData(api.entity(path).index.$post({ json: body })) : apiData(api.entity(path)[':id'].$put({ param: { id }, json: body })),
    redirect: e.route.path,
    flash: (saved) => ({ kind: 'success', message: e.saved, values: { name: String(saved[e.labelField] ?? '') } }),
  })
}

export default function EntityFormRoute() {
  const { entity, title, row, options, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const e = plainEntity(entity)!
  return (
    <FormScreen
      key={row ? String(row[e.key]) : 'new'}
      title={row ? `${t(title)}: ${String(row[e.labelField] ?? row[e.key])}` : t(title)}
      back={e.route.path}
      fields={formFieldsOf(e, options)}
      schema={e.input}
      initial={row ?? (v.getDefaults(e.input) as unknown as Record<string, unknown> | undefined) ?? {}}
      timeZone={timeZone}
      protect={e.route.unsaved}
    />
  )
}

export const ErrorBoundary = RouteError
