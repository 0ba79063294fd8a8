import type { AppLoadContext } from '@remix-run/cloudflare'
import { configForm, type ConfigType, type ContentConfig } from '#shared/schemas/lesson/genesis'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiAction, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { configFields, configType } from './__content-config'

type Screen = 'cgs.content_config.create' | 'cgs.content_config.edit'

/** The create/edit screen's data: the type, the row (edit), the realm's agents (when the user may list them). */
export async function configScreen(request: Request, context: AppLoadContext, route: Screen, params: Record<string, string | undefined>) {
  const { api, user, realm } = await requireRoute(request, context, route)
  const type = configType(params.type)
  const id = params.contentConfigId
  const row = id ? await orErrorResponse(apiData(api.entity<ContentConfig>('cgs/content_config')[':id'].$get({ param: { id } }))) : null
  if (row && row.type !== type) throw new Response(null, { status: 404 })
  const agents = user.permissions.cgs_agent_list
    ? (await apiData(api.entity<{ id: string; name: string }>('cgs/agent').index.$get({ query: { limit: 1000 } }))).items.map((a) => ({
        value: a.id,
        label: a.name,
      }))
    : []
  return { type, row, agents, nick: user.nick, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

/** Saves the form (the type is the path's), then back to the type's list. */
export async function configAction(request: Request, context: AppLoadContext, route: Screen, params: Record<string, string | undefined>) {
  const { type, agents } = await configScreen(request, context, route, params)
  const id = params.contentConfigId
  return apiAction(request, context, {
    route,
    schema: configForm(type as ConfigType),
    fields: configFields(type, agents),
    call: (api, body) => {
      const json = { ...body, type } as never
      const list = api.entity<ContentConfig>('cgs/content_config')
      return id ? apiData(list[':id'].$put({ param: { id }, json })) : apiData(list.index.$post({ json }))
    },
    redirect: (saved) => `/cgs/content_config/${type}/edit/${encodeURIComponent(saved.id)}`,
    flash: (saved) => ({ kind: 'success', message: 'tms.saved', values: { name: saved.title } }),
  })
}
