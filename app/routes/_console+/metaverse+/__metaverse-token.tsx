import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CopyButton } from '~/components/ui/copy-button'
import { Dialog } from '~/components/ui/dialog'
import { TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { useLiveValidation } from '~/lib/form'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { jsonBody } from '~/lib/json'
import type { ErrorItem } from '#shared/schemas/error'
import { MetaverseTokenRequest, type MetaverseToken } from '#shared/schemas/metaverse'

/** Generates a signed, expiring access token for an e-mail at a metaverse host (both needed, seed 002 §5). */
export function MetaverseTokenDialog({ host, onClose }: { host: string | null; onClose: () => void }) {
  const { t } = useTranslation()
  const clock = useClock()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[]; token: MetaverseToken | null }>({ key: 'metaverse-token' })
  const [values, setValues] = useState({ host: host ?? '', email: '' })
  const form = useLiveValidation(MetaverseTokenRequest, values, fetcher.data?.errors)
  const token = fetcher.data?.token
  return (
    <Dialog open={host !== null} onClose={onClose} title={t('resources.metaverse_room.token.title')} labelledBy="metaverse-token-title">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (form.attempt()) fetcher.submit(jsonBody({ intent: 'token', ...values }), { method: 'post', encType: 'application/json' })
        }}
      >
        <TextField
          label={t('resources.metaverse_room.fields.host')}
          value={values.host}
          onChange={(h) => setValues((x) => ({ ...x, host: h }))}
          onBlur={() => form.touch('host')}
          error={form.errorOf('host')}
          required
        />
        <TextField
          label={t('resources.metaverse_room.token.email')}
          type="email"
          value={values.email}
          onChange={(m) => setValues((x) => ({ ...x, email: m }))}
          onBlur={() => form.touch('email')}
          error={form.errorOf('email')}
          required
        />
        {fetcher.data && !fetcher.data.ok ? (
          <p className="alert alert-error" role="alert">
            {fetcher.data.errors.map((e) => t(e.message, { defaultValue: t(`errors.${e.cause}`) })).join(' ')}
          </p>
        ) : null}
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
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('dialog.close')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={fetcher.state !== 'idle'}>
            <Icon name="key" /> {t('resources.metaverse_room.token.generate')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
