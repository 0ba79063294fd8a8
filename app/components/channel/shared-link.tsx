import { useRouteLoaderData } from '@remix-run/react'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { sharedChannelLink } from '#shared/deeplink'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import type { RootData } from '~/root'

/**
 * The channel's shared link (issue 13): the conference deep-link page on the realm's console address
 * (`dashboard_url`), naming the realm when the console runs on a multi-realm host. Copy puts it on the clipboard;
 * where the clipboard is refused the link is selected so it can be copied by hand. A console room's (issue 20,
 * `kind="room"`) is `/deeplink?room={id}`, shown on the room's screen.
 */
export function SharedLink({ channelId, kind = 'channel' }: { channelId: string; kind?: 'channel' | 'room' }) {
  const root = useRouteLoaderData<RootData>('root')
  const { t } = useTranslation()
  const toast = useToast()
  const input = useRef<HTMLInputElement>(null)
  if (!root?.realm) return null
  const origin = new URL(root.realm.dashboard_url).origin
  const link = sharedChannelLink(origin, channelId, root.multirealm ? root.realm.realm : null, kind)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link)
      toast.push({ kind: 'success', message: 'channel.share.copied' })
    } catch {
      input.current?.select()
      toast.push({ kind: 'error', message: 'channel.share.copy_failed' })
    }
  }
  return (
    <section className="card shared-link" aria-labelledby="shared-link-title">
      <h2 id="shared-link-title">{t('channel.share.title')}</h2>
      <p className="hint" id="shared-link-hint">
        {t('channel.share.hint')}
      </p>
      <div className="inline-form">
        <label htmlFor="shared-link" className="visually-hidden">
          {t('channel.share.title')}
        </label>
        <input
          ref={input}
          id="shared-link"
          className="input"
          readOnly
          value={link}
          aria-describedby="shared-link-hint"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn" onClick={copy}>
          <Icon name="copy" /> {t('channel.share.copy')}
        </button>
        <a className="btn btn-link" href={link} target="_blank" rel="noreferrer">
          <Icon name="external" label={t('deeplink.title')} />
        </a>
      </div>
    </section>
  )
}
