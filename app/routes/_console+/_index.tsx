import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { Presence } from '~/components/shell/presence'
import { RouteError } from '~/components/shell/route-error'
import type { RootData } from '~/root'
import type { loader as consoleLoader } from './_layout'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'nav.overview' }

/** Greeting by the hour in the realm's time zone (seed 000 §9): before 12, before 18, otherwise. */
export function greetingKey(hour: number): 'good_morning' | 'good_afternoon' | 'good_night' {
  return hour < 12 ? 'good_morning' : hour < 18 ? 'good_afternoon' : 'good_night'
}

/** Hour formatters by time zone, made once per zone for the life of the Worker (making one is costly; the render asks for it on every home page). */
const hourFormats = new Map<string, Intl.DateTimeFormat>()

function hourIn(timeZone: string, at: Date): number {
  let format = hourFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone })
    hourFormats.set(timeZone, format)
  }
  return Number(format.format(at))
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, realm } = await requireRoute(request, context, 'overview')
  const hour = hourIn(realm.config?.time_zone || 'America/Sao_Paulo', new Date())
  // What the page shows of the user: the name and the nick (Presence), not the session's permission map.
  return { user: { name: user.name, nick: user.nick }, greeting: greetingKey(hour) }
}

export default function Overview() {
  const { user, greeting } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<RootData>('root')
  const { t } = useTranslation()
  const nav = useRouteLoaderData<typeof consoleLoader>('routes/_console+/_layout')?.nav ?? []
  return (
    <>
      <div className="page-header">
        <h1>{t(`overview.greeting.${greeting}`, { name: user.name })}</h1>
      </div>
      <p>{t('overview.realm', { name: root?.realm?.name })}</p>
      <section className="card" aria-labelledby="modules-title">
        <h2 id="modules-title">{t('overview.modules')}</h2>
        {nav.length === 0 ? (
          <p>{t('overview.modules.empty')}</p>
        ) : (
          <ul className="module-grid">
            {nav.map((section) => (
              <li key={section.id}>
                <Link to={section.items[0].path}>
                  <Icon name={section.icon} />
                  <span className="module-name">{t(section.label)}</span>
                  <span className="module-items">{section.items.map((i) => t(i.label)).join(' · ')}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Presence self={user.nick} />
    </>
  )
}

export const ErrorBoundary = RouteError
