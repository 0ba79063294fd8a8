import { useFetcher, useLocation } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/react'
import { THEMES, type Settings } from '#shared/schemas/settings'
import { Dialog } from '../ui/dialog'

/** Settings drawer (seed 000 §2.1): theme, responsive font sizes, compact width, rounded corners, direction. */
export function SettingsDrawer({ open, onClose, settings }: { open: boolean; onClose: () => void; settings: Settings }) {
  const { t } = useTranslation()
  const location = useLocation()
  const fetcher = useFetcher<{ ok: boolean }>({ key: 'settings' })
  const saving = fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) onClose()
  }, [fetcher.state, fetcher.data, onClose])

  return (
    <Dialog open={open} onClose={onClose} title={t('settings.title')} className="drawer" labelledBy="settings-title">
      <fetcher.Form method="post" action="/settings" className="settings-form">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <fieldset>
          <legend>{t('settings.theme')}</legend>
          <div className="theme-grid">
            {(['SYSTEM', ...THEMES] as const).map((theme) => (
              <label key={theme} className="theme-option" data-swatch={theme}>
                <input type="radio" name="theme" value={theme} defaultChecked={settings.theme === theme} />
                <span className="swatch" aria-hidden="true" />
                <span>{t(`settings.theme.${theme}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('settings.layout')}</legend>
          <label className="switch">
            <input type="checkbox" name="responsiveFontSizes" defaultChecked={settings.responsiveFontSizes} />
            <span>{t('settings.responsive_font_sizes')}</span>
          </label>
          <label className="switch">
            <input type="checkbox" name="compact" defaultChecked={settings.compact} />
            <span>{t('settings.compact')}</span>
          </label>
          <label className="switch">
            <input type="checkbox" name="roundedCorners" defaultChecked={settings.roundedCorners} />
            <span>{t('settings.rounded_corners')}</span>
          </label>
        </fieldset>
        <fieldset>
          <legend>{t('settings.direction')}</legend>
          <label className="radio">
            <input type="radio" name="direction" value="ltr" defaultChecked={settings.direction === 'ltr'} />
            <span>{t('settings.direction.ltr')}</span>
          </label>
          <label className="radio">
            <input type="radio" name="direction" value="rtl" defaultChecked={settings.direction === 'rtl'} />
            <span>{t('settings.direction.rtl')}</span>
          </label>
        </fieldset>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('settings.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? <span className="spinner" aria-hidden="true" /> : null}
            {t('settings.save')}
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  )
}
