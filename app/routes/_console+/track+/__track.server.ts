import type { AppLoadContext } from '@remix-run/cloudflare'
import { TrackInput, type Track } from '#shared/schemas/achievement'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiAction, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { prepareTrack } from './__track'

/** A track's screen: the track (edit) and the task models, lessons and survey models its items may name. */
export async function trackScreen(request: Request, context: AppLoadContext, route: 'track.create' | 'track.edit', trackId?: string) {
  const { api, realm } = await requireRoute(request, context, route)
  const track = trackId ? await orErrorResponse(apiData(api.entity<Track>('achievement/track')[':id'].$get({ param: { id: trackId } }))) : null
  const options = await orErrorResponse(apiData(api.achievement.options.$get()))
  return {
    track,
    taskModels: options.task_models,
    lessons: options.lessons,
    surveys: options.survey_models,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

export function trackAction(request: Request, context: AppLoadContext, route: 'track.create' | 'track.edit', trackId?: string) {
  return apiAction(request, context, {
    route,
    schema: TrackInput,
    prepare: prepareTrack,
    call: (api, json) => {
      const list = api.entity<Track>('achievement/track')
      return trackId ? apiData(list[':id'].$put({ param: { id: trackId }, json })) : apiData(list.index.$post({ json }))
    },
    redirect: (saved) => `/track/edit/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'tms.saved', values: { name: saved.title } }),
  })
}
