import { data, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { realmApi } from '~/server/api.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'outbox.title' }

interface Mail {
  id: number
  to_address: string
  subject: string
  text: string
  created_at: string
}

/**
 * The local e-mail outbox (development realms only): what the local EmailSender "sent", so recovery links can be
 * followed without an e-mail provider. Public like the recovery page it serves; absent (404) in other realms.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const realm = await getRealmContext(request, context)
  if (!realm.config?.development || !realm.code) throw data(null, { status: 404 })
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.code })
  const { items } = await api.get<{ items: Mail[] }>('dev/outbox')
  return { items }
}

/** Links in a message become clickable; the rest stays plain text. */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g)
  return (
    <p className="mail-text">
      {parts.map((part, i) => (/^https?:\/\//.test(part) ? <a key={i} href={part}>{part}</a> : part))}
    </p>
  )
}

export default function OutboxRoute() {
  const { items } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <main className="entry outbox" id="main">
      <div className="entry-card entry-card-wide">
        <h1>{t('outbox.title')}</h1>
        <p className="lead">{t('outbox.description')}</p>
        {items.length === 0 ? (
          <p className="alert alert-info">{t('outbox.empty')}</p>
        ) : (
          <ol className="mail-list">
            {items.map((m) => (
              <li key={m.id} className="card">
                <h2>{m.subject}</h2>
                <p className="hint">
                  {t('outbox.to', { to: m.to_address })} · <time dateTime={m.created_at}>{m.created_at.replace('T', ' ').slice(0, 19)}</time>
                </p>
                <MailText text={m.text} />
              </li>
            ))}
          </ol>
        )}
        <p className="form-links">
          <Link to="/authentication/recover">{t('recover.title')}</Link>
        </p>
      </div>
    </main>
  )
}
