import { useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, TextInput } from '~/components/form/kit'
import { useClock } from '~/components/ui/clock'
import { CopyButton } from '~/components/ui/copy-button'
import { Dialog } from '~/components/ui/dialog'
import { formatTime } from '~/lib/format'
import { MetaverseTokenRequest, type MetaverseToken } from '#shared/schemas/metaverse'

/** Generates a signed, expiring access token for an e-mail at a metaverse host (both needed, seed 002 §5). */
export function MetaverseTokenDialog({ host, timeZone, onClose }: { host: string | null; timeZone: string; onClose: () => void }) {
  const { t } = useTranslation()
  const clock = useClock()
  const fetcher = useFetcher<{ token?: MetaverseToken }>({ key: 'metaverse-token' })
  const token = fetcher.data?.token
  return (
    <Dialog open={host !== null} onClose={onClose} title={t('resources.metaverse_room.token.title')} labelledBy="metaverse-token-title">
      <KitForm
        schema={MetaverseTokenRequest}
        defaultValue={{ host: host ?? '', email: '' }}
        lastResult={fetcher.data}
        fetcher={fetcher}
        labels={{ host: t('resources.metaverse_room.fields.host'), email: t('resources.metaverse_room.token.email') }}
        timeZone={timeZone}
        className="dialog-form"
        submitLabel={t('resources.metaverse_room.token.generate')}
        submitIcon="key"
        actions={
          <button type="button" className="btn" onClick={onClose}>
            {t('dialog.close')}
          </button>
        }
      >
        <input type="hidden" name="intent" value="token" />
        <TextInput name="host" label={t('resources.metaverse_room.fields.host')} required />
        <TextInput name="email" type="email" label={t('resources.metaverse_room.token.email')} required />
        {token ? (
          <div className="token-result" role="status">
            <label htmlFor="metaverse-token">{t('resources.metaverse_room.token.value')}</label>
            <div className="input-group">
              <input id="metaverse-token" className="input code" readOnly value={token.token} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton text={token.token} label={t('copy.copy')} iconOnly />
            </div>
            <p className="hint">{t('resources.metaverse_room.token.expires', { at: formatTime(token.expires_at, clock) })}</p>
          </div>
        ) : null}
      </KitForm>
    </Dialog>
  )
}
