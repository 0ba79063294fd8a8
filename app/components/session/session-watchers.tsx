import { Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { WatchersPage } from '#shared/schemas/csm-watch'
import { clockDuration } from '~/lib/format'

/**
 * "Who watched" on a session's detail (issue 15): the session's watch metrics over everyone who watched it (viewers,
 * watched time summed, mean percentage) and one row per student (name and nick, watched time, percentage), 20 a page
 * by `?watchers_page=` links (work without script). `page` is null for a session without a video.
 */
export function SessionWatchers({ page }: { page: WatchersPage | null }) {
  const { t, i18n } = useTranslation()
  const { pathname, search } = useLocation()
  const n = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 })
  const pageLink = (p: number) => {
    const q = new URLSearchParams(search)
    q.set('watchers_page', String(p))
    return `${pathname}?${q}`
  }
  return (
    <section className="card" aria-labelledby="session-watchers">
      <h2 id="session-watchers">{t('session.watchers.title')}</h2>
      {!page ? (
        <p className="hint">{t('session.watchers.no_video')}</p>
      ) : (
        <>
          <dl className="facts">
            <dt>{t('session.watchers.viewers')}</dt>
            <dd data-metric="viewers">{n.format(page.aggregate.viewers)}</dd>
            <dt>{t('session.watchers.total')}</dt>
            <dd data-metric="watched_seconds">{clockDuration(page.aggregate.watched_seconds)}</dd>
            <dt>{t('session.watchers.average')}</dt>
            <dd data-metric="watched_percent">{n.format(page.aggregate.average_percent)}%</dd>
          </dl>
          <p className="hint">{t('session.watchers.bucket', { bucket: page.aggregate.bucket })}</p>
          {page.items.length ? (
            <table className="table" aria-labelledby="session-watchers">
              <thead>
                <tr>
                  <th scope="col">{t('session.watchers.student')}</th>
                  <th scope="col" className="align-right">
                    {t('session.watchers.time')}
                  </th>
                  <th scope="col" className="align-right">
                    {t('session.watchers.percent')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((w) => (
                  <tr key={w.nick} data-watcher={w.nick}>
                    <td>
                      {w.name || w.nick} <span className="hint">({w.nick})</span>
                    </td>
                    <td className="align-right">{clockDuration(w.watched_seconds)}</td>
                    <td className="align-right" data-percent={w.percent}>
                      {n.format(w.percent)}%
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="hint">{t('session.watchers.empty')}</p>
          )}
          {page.pages > 1 ? (
            <nav className="row" aria-label={t('session.watchers.pages')}>
              {page.page > 1 ? (
                <Link className="btn" to={pageLink(page.page - 1)} preventScrollReset>
                  {t('session.watchers.previous')}
                </Link>
              ) : null}
              <span aria-current="page">{t('session.watchers.page', { page: page.page, pages: page.pages })}</span>
              {page.page < page.pages ? (
                <Link className="btn" to={pageLink(page.page + 1)} preventScrollReset>
                  {t('session.watchers.next')}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  )
}
