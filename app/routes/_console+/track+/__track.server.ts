import type { AppLoadContext } from '@remix-run/cloudflare'
import { TrackInput, type Track } from '#shared/schemas/achievement'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiAction, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { prepareTrack } from './__track'

/**
 * A track's screen: the track (edit) and the task models, lessons and survey models its items may name; on edit, with
 * the track read permission, the rooms following it and the progress of the room chosen in `?room=` (issue 19).
 */
export async function trackScreen(request: Request, context: AppLoadContext, route: 'track.create' | 'track.edit', trackId?: string) {
  const { api, realm, user } = await requireRoute(request, context, route)
  const track = trackId ? await orErrorResponse(apiData(api.entity<Track>('achievement/track')[':id'].$get({ param: { id: trackId } }))) : null
  const options = await orErrorResponse(apiData(api.achievement.options.$get()))
  const p = user.permissions
  const room = new URL(request.url).searchParams.get('room') || undefined
  const progress =
    track && (p.achievement_track_get || p.achievement_track_edit)
      ? await apiData(api.achievement.track[':id'].progress.$get({ param: { id: track.id }, query: room ? { room } : {} })).catch(() =>
          // A room that no longer follows the track (or a bad id): the rooms without a chosen one.
          room ? apiData(api.achievement.track[':id'].progress.$get({ param: { id: track.id }, query: {} })).then((r) => ({ ...r, missing: room })) : null,
        )
      : null
  return {
    track,
    progress: progress ? { missing: null, ...progress } : null,
    can: { task: p.tms_task_publish === true, lesson: p.lesson_lesson_edit === true, survey: p.survey_survey_publish === true },
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
