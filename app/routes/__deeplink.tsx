import { Link, useLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import type { deeplinkLoader } from './__deeplink.server'

/**
 * The conference deep-link page (seed 000 §2.1, issue 13): the realm's branding, the channel, and three ways in —
 * open in the app (the realm's app scheme), download the app (the store of the visitor's platform, both when it is
 * neither iOS nor Android), continue in the browser (the web client, or the participant view `/live/{id}`); above
 * them, the quizzes and poll running on the channel, each to its player page (issue 14).
 * `openApp` (the `/deeplink/app` route) sends the browser to the app once the page is shown.
 */
export function DeeplinkPage({ openApp = false }: { openApp?: boolean }) {
  const d = useLoaderData<typeof deeplinkLoader>()
  const { t } = useTranslation()
  const app = d.target?.links.app ?? null
  useEffect(() => {
    if (openApp && app) window.location.href = app
  }, [openApp, app])

  if (!d.target) {
    return (
      <main className="entry" id="main">
        <div className="entry-card deeplink" role="alert" aria-labelledby="deeplink-title">
          <Icon name="warning" size={32} />
          <h1 id="deeplink-title">{t(d.kind === 'room' ? 'deeplink.error.room' : 'deeplink.error.channel')}</h1>
          <p className="lead">{t(d.state === 'missing' ? 'deeplink.missing' : d.kind === 'room' ? 'deeplink.room_not_found' : 'deeplink.not_found')}</p>
          <Link to="/" className="btn btn-primary">
            {t('deeplink.home')}
          </Link>
        </div>
      </main>
    )
  }
  const { realm, channel, links, live } = d.target
  const stores = [
    { id: 'ios', url: links.ios, label: 'deeplink.ios' },
    { id: 'android', url: links.android, label: 'deeplink.android' },
  ].filter((s) => s.url && (d.platform === 'other' || d.platform === s.id))
  return (
    <main className="entry" id="main">
      <div className="entry-card deeplink">
        <div className="entry-logo">
          {realm.logo_url ? <img src={realm.logo_url} alt={realm.name} /> : <strong className="brand-name">{realm.name}</strong>}
        </div>
        <h1>{t('deeplink.title')}</h1>
        <div className="deeplink-channel">
          {channel.avatar_url ? (
            <img src={channel.avatar_url} alt="" width={48} height={48} />
          ) : (
            <Icon name={d.kind === 'room' ? 'room' : 'channel'} size={32} />
          )}
          <strong>{channel.name}</strong>
        </div>
        <p className="lead">{t('deeplink.lead', { channel: channel.name })}</p>
        {openApp && app ? (
          <p className="hint" role="status">
            {t('deeplink.opening')}
          </p>
        ) : null}
        {live.length ? (
          <ul className="deeplink-choices deeplink-live" aria-label={t('deeplink.live')}>
            {live.map((g) => (
              <li key={g.id}>
                <a className="btn btn-primary btn-block" href={g.url} data-choice={`play-${g.kind}`}>
                  <Icon name={g.kind} /> {t(g.kind === 'quiz' ? 'deeplink.play_quiz' : 'deeplink.vote_poll', { name: g.name })}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        <ul className="deeplink-choices" aria-label={t('deeplink.title')}>
          <li>
            {app ? (
              <a className="btn btn-primary btn-block" href={app} data-choice="app">
                <Icon name="external" /> {t('deeplink.open_app')}
              </a>
            ) : (
              <p className="hint">{t('deeplink.no_app')}</p>
            )}
          </li>
          <li>
            {stores.length ? (
              <div className="deeplink-stores" role="group" aria-label={t('deeplink.download')}>
                {stores.map((s) => (
                  <a key={s.id} className="btn btn-block" href={s.url!} data-choice={`store-${s.id}`} rel="noreferrer">
                    <Icon name="download" /> {t(s.label)}
                  </a>
                ))}
              </div>
            ) : (
              <p className="hint">{t('deeplink.no_store')}</p>
            )}
          </li>
          <li>
            <a className="btn btn-block" href={links.browser} data-choice="browser">
              <Icon name="link" /> {t('deeplink.browser')}
            </a>
          </li>
        </ul>
      </div>
    </main>
  )
}
