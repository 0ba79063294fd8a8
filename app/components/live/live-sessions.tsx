import { useTranslation } from 'react-i18next'

/** What the sessions table shows of an ended live session (the `csm_session` metrics the live parties hand over). */
export type LiveSessionRow = {
  id: string
  started_at: string
  live_seconds: number
  peak_participants: number
  chat_count: number
  attachment_count: number
  hand_raise_count: number
  /** The session's status and video status (issue 20 recording: a recorded session has the video's duration). */
  status?: string
  video_status?: string
  video_seconds?: number | null
}

/**
 * The last live sessions of a channel or room with their metrics (the console's live views), or `empty` when there
 * are none; `note` is shown above the table (e.g. that a room does not record).
 */
export function LiveSessions({ sessions, title, empty, note }: { sessions: readonly LiveSessionRow[]; title: string; empty: string; note?: string }) {
  const { t, i18n } = useTranslation()
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' })
  return (
    <section className="card" aria-labelledby="live-sessions-title">
      <h2 id="live-sessions-title">{title}</h2>
      {note ? <p className="hint">{note}</p> : null}
      {sessions.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('live.session.started')}</th>
                <th scope="col">{t('live.session.minutes')}</th>
                <th scope="col">{t('live.session.peak')}</th>
                <th scope="col">{t('live.session.chat')}</th>
                <th scope="col">{t('live.session.attachments')}</th>
                <th scope="col">{t('live.session.hands')}</th>
                <th scope="col">{t('live.session.video')}</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td>{when.format(new Date(s.started_at))}</td>
                  <td>{Math.round(s.live_seconds / 60)}</td>
                  <td>{s.peak_participants}</td>
                  <td>{s.chat_count}</td>
                  <td>{s.attachment_count}</td>
                  <td>{s.hand_raise_count}</td>
                  <td data-video-status={s.video_status ?? 'no_video'}>
                    {t(`live.session.video_status.${s.video_status ?? 'no_video'}`)}
                    {s.video_seconds != null ? ` (${t('live.session.video_seconds', { seconds: Math.round(s.video_seconds) })})` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{empty}</p>
      )}
    </section>
  )
}
