import type { AppLoadContext } from '@remix-run/cloudflare'
import type * as v from 'valibot'
import { apiData, orErrorResponse, type RealmApi } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute, type SessionUser } from '~/server/auth.server'

/** The realm's channels as options of the quiz form (a quiz runs on a channel); read only when the user may list them. */
export async function channelOptions(api: RealmApi, user: SessionUser): Promise<{ value: string; label: string }[]> {
  if (!user.permissions.sns_channel_list) return []
  const page = await apiData(api.channel.$get({ query: { limit: 1000, order: 'name' } }))
  return page.items.map((c) => ({ value: c.id, label: c.name }))
}

/** The options with the quiz's or poll's own channel among them (a user who may not list channels still sees it). */
export function withOwnChannel(options: { value: string; label: string }[], own: { channel_id: string; channel_name?: string }) {
  return options.some((o) => o.value === own.channel_id) ? options : [{ value: own.channel_id, label: own.channel_name || own.channel_id }, ...options]
}

/**
 * The loader of a quiz's or poll's settings form behind `route`: the channels as options and the realm's time zone;
 * on the edit screen (`read`), the saved quiz or poll too (the API's refusal as the page's error), its channel among
 * the options.
 */
export async function settingsFormData<T extends { channel_id: string; channel_name?: string }>(
  request: Request,
  context: AppLoadContext,
  route: string,
  read?: (api: RealmApi) => Promise<T>,
) {
  const { api, realm, user } = await requireRoute(request, context, route)
  const [saved, channels] = await Promise.all([read ? orErrorResponse(read(api)) : null, channelOptions(api, user)])
  return { saved, channels: saved ? withOwnChannel(channels, saved) : channels, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

/** The action of a quiz's or poll's settings form: saved through `call`, then its control screen with a flash. */
export function saveSettings<S extends v.GenericSchema, R extends { id: string; name: string }>(
  request: Request,
  context: AppLoadContext,
  kind: 'quiz' | 'poll',
  opts: { route: string; schema: S; call: (api: RealmApi, json: v.InferOutput<S>) => Promise<R> },
) {
  return apiAction(request, context, {
    ...opts,
    redirect: (saved) => `/${kind}/control/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: `resources.${kind}.saved`, values: { name: saved.name } }),
  })
}
