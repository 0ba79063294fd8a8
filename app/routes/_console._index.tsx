import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/icon'
import { Presence } from '~/components/presence'
import { RouteError } from '~/components/route-error'
import { navEntries } from '~/components/shell'
import type { RootData } from '~/root'
import { requireUser } from '~/server/auth.server'

export const handle = { title: 'nav.overview' }

/** Greeting by the hour in the realm's time zone (seed 000 §9): before 12, before 18, otherwise. */
export function greetingKey(hour: number): 'good_morning' | 'good_afternoon' | 'good_night' {
  return hour < 12 ? 'good_morning' : hour < 18 ? 'good_afternoon' : 'good_night'
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, realm } = await requireUser(request, context)
  const hour = Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: realm.config?.time_zone || 'America/Sao_Paulo' }).format(new Date()))
  return { user, greeting: greetingKey(hour) }
}

export default function Overview() {
  const { user, greeting } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<RootData>('root')
  const { t } = useTranslation()
  const modules = navEntries(user, root?.realm ?? null).filter((r) => r.path !== '/')
  return (
    <>
      <div className="page-header">
        <h1>{t(`overview.greeting.${greeting}`, { name: user.name })}</h1>
      </div>
      <p>{t('overview.realm', { name: root?.realm?.name })}</p>
      <section className="card" aria-labelledby="modules-title">
        <h2 id="modules-title">{t('overview.modules')}</h2>
        {modules.length === 0 ? (
          <p>{t('overview.modules.empty')}</p>
        ) : (
          <ul className="module-grid">
            {modules.map((m) => (
              <li key={m.path}>
                <Link to={m.path}>
                  <Icon name={m.nav.icon} /> {t(m.nav.label)}
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
