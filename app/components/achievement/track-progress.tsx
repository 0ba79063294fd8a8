import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { withQuery } from '~/lib/mobile-query'
import type { StudentTrack, TrackProgressItem } from '#shared/schemas/achievement'

export interface TrackProgressData {
  rooms: { id: string; name: string; member_count: number; closed_at: string | null }[]
  room: string | null
  items: TrackProgressItem[]
  /** A room asked for that does not follow the track. */
  missing: string | null
}

/** The console's publish screen of an item's model (targets and dates). */
export const publishPath = (i: Pick<TrackProgressItem, 'kind' | 'model_id'>) =>
  i.kind === 'task_model'
    ? `/tms/task/edit/${encodeURIComponent(i.model_id)}`
    : i.kind === 'lesson'
      ? `/lesson/lesson/edit/new?model=${encodeURIComponent(i.model_id)}`
      : `/survey/survey/edit/${encodeURIComponent(i.model_id)}`

/** The student's apply page of a publication. */
export const applyPath = (kind: TrackProgressItem['kind'], id: string) =>
  kind === 'task_model'
    ? `/mobile/tms/task/${encodeURIComponent(id)}/apply`
    : kind === 'lesson'
      ? `/mobile/lesson/${encodeURIComponent(id)}/apply`
      : `/mobile/survey/${encodeURIComponent(id)}/apply`

/**
 * The track screen's rooms (issue 19): the rooms following the track, a room chooser (a GET form), and for the
 * chosen room each item in order — published or not, how many members completed it, a link to publish it.
 */
export function TrackRooms({ data, can }: { data: TrackProgressData; can: Record<'task' | 'lesson' | 'survey', boolean> }) {
  const { t } = useTranslation()
  const chosen = data.rooms.find((r) => r.id === data.room)
  const mayPublish = (i: TrackProgressItem) => (i.kind === 'task_model' ? can.task : i.kind === 'lesson' ? can.lesson : can.survey)
  return (
    <section aria-labelledby="track-rooms" className="card">
      <h2 id="track-rooms">{t('achievement.track.rooms')}</h2>
      {data.missing ? (
        <p role="alert" className="hint">
          {t('achievement.track_room_not_following')}
        </p>
      ) : null}
      {data.rooms.length === 0 ? (
        <p className="hint">{t('achievement.track.no_rooms')}</p>
      ) : (
        <Form method="get" className="form-row">
          <label htmlFor="track-room">{t('achievement.track.choose_room')}</label>
          <select id="track-room" name="room" className="input" defaultValue={data.room ?? ''} key={data.room ?? ''}>
            <option value="">—</option>
            {data.rooms.map((r) => (
              <option key={r.id} value={r.id}>
                {t('achievement.track.room_option', { name: r.name, n: r.member_count })}
              </option>
            ))}
          </select>
          <button type="submit" className="btn">
            {t('achievement.track.show')}
          </button>
        </Form>
      )}
      {chosen ? (
        <div className="table-scroll">
          <table className="table" aria-label={t('achievement.track.progress_of', { name: chosen.name })}>
            <caption>{t('achievement.track.progress_of', { name: chosen.name })}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('achievement.field.item_kind')}</th>
                <th scope="col">{t('achievement.field.item')}</th>
                <th scope="col">{t('achievement.track.published')}</th>
                <th scope="col">{t('achievement.track.completed')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((i) => (
                <tr key={i.pos} data-item={i.model_id}>
                  <td>{i.pos + 1}</td>
                  <td>{t(`achievement.item_kind.${i.kind}`)}</td>
                  <td>{i.title ?? t('achievement.track.removed_item')}</td>
                  <td>
                    {i.published > 0 ? (
                      t('achievement.track.published_yes', { n: i.published })
                    ) : (
                      <>
                        {t('achievement.track.published_no')}{' '}
                        {mayPublish(i) && i.title !== null ? (
                          <Link to={publishPath(i)} className="btn btn-small">
                            {t('achievement.track.publish')}
                          </Link>
                        ) : null}
                      </>
                    )}
                  </td>
                  <td>{t('achievement.track.completed_of', { done: i.completed, n: chosen.member_count })}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.items.length === 0 ? <p className="hint">{t('achievement.track.no_items')}</p> : null}
        </div>
      ) : null}
    </section>
  )
}

/**
 * The student's "Trilha" on the phone (issue 19): for each of their rooms following a track, its items in order,
 * each done, available (a link to its apply page) or not yet available. Empty when no room follows one; an error
 * state when the list could not be read.
 */
export function MobileTrack({ items, query }: { items: StudentTrack[] | null; query: string }) {
  const { t } = useTranslation()
  if (items !== null && items.length === 0) return null
  return (
    <section aria-labelledby="mtms-track-title" className="mobile-track">
      <h2 id="mtms-track-title">{t('achievement.mine.track')}</h2>
      {items === null ? (
        <p role="alert">{t('achievement.mine.track_error')}</p>
      ) : (
        items.map((tr) => (
          <div key={tr.room_id} className="card">
            <h3>{tr.track_title}</h3>
            <p className="hint">{t('achievement.mine.track_room', { room: tr.room_name })}</p>
            <ol className="plain-list mobile-track-items">
              {tr.items.map((i) => {
                const state = i.completed > 0 ? 'done' : i.open_id ? 'available' : 'later'
                return (
                  <li key={i.pos} data-state={state}>
                    <span>{i.title ?? t('achievement.track.removed_item')}</span> <span className="badge">{t(`achievement.mine.track_state.${state}`)}</span>{' '}
                    {state === 'available' && i.open_id ? (
                      <Link className="btn btn-primary" to={withQuery(applyPath(i.kind, i.open_id), query)}>
                        {t(`achievement.mine.track_open.${i.kind}`)}
                      </Link>
                    ) : null}
                  </li>
                )
              })}
            </ol>
          </div>
        ))
      )}
    </section>
  )
}
