import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { jsonBody } from '~/lib/json'
import type { ErrorItem } from '#shared/schemas/error'
import type { ImportReport } from '#shared/schemas/user'

const MAX_BYTES = 1_000_000

/**
 * CSV import of users: the file is checked first (nothing written) and its per-row report shown; importing then
 * creates or updates each valid row whole, and the final report says what happened to every row.
 */
export function UserImport({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[]; report: ImportReport | null }>({ key: 'user-import' })
  const [csv, setCsv] = useState<string | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const busy = fetcher.state !== 'idle'
  const report = fetcher.data?.report ?? null
  useEffect(() => {
    if (!open) setCsv(null)
  }, [open])
  const send = (dry_run: boolean) =>
    csv !== null && fetcher.submit(jsonBody({ intent: 'import', csv, dry_run }), { method: 'post', encType: 'application/json' })

  return (
    <Dialog open={open} onClose={onClose} title={t('resources.user.import.title')} labelledBy="user-import-title" className="wide">
      <p className="hint">{t('resources.user.import.help')}</p>
      <div className="field">
        <label htmlFor="user-import-file">{t('resources.user.import.file')}</label>
        <input
          id="user-import-file"
          type="file"
          className="input"
          accept=".csv,text/csv"
          aria-describedby="user-import-file-msg"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0]
            setFileError(null)
            setCsv(null)
            if (!file) return
            if (file.size > MAX_BYTES) return setFileError(t('validation.file.max_size', { limit: new Intl.NumberFormat().format(MAX_BYTES) }))
            const text = await file.text()
            setCsv(text)
            fetcher.submit(jsonBody({ intent: 'import', csv: text, dry_run: true }), { method: 'post', encType: 'application/json' })
          }}
        />
        <p className={fileError ? 'error' : 'hint'} id="user-import-file-msg" role={fileError ? 'alert' : undefined}>
          {fileError ?? t('resources.user.import.columns')}
        </p>
      </div>
      {busy ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t('resources.user.import.working')}
        </p>
      ) : null}
      {fetcher.data && !fetcher.data.ok ? (
        <div className="alert alert-error" role="alert">
          {fetcher.data.errors.map((e, i) => (
            <p key={i}>
              {t(e.message, { defaultValue: e.message, value: String(e.value ?? '') })} {e.value ? <code>{String(e.value)}</code> : null}
            </p>
          ))}
        </div>
      ) : null}
      {report ? <ImportReportTable report={report} /> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('dialog.close')}
        </button>
        {report?.dry_run && report.created + report.updated > 0 ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => send(false)}>
            <Icon name="check" /> {t('resources.user.import.run', { count: report.created + report.updated })}
          </button>
        ) : null}
      </div>
    </Dialog>
  )
}

function ImportReportTable({ report }: { report: ImportReport }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="import-report-title">
      <h3 id="import-report-title">{t(report.dry_run ? 'resources.user.import.checked' : 'resources.user.import.done')}</h3>
      <p role="status">{t('resources.user.import.summary', { created: report.created, updated: report.updated, refused: report.refused })}</p>
      <div className="table-wrap report-table">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t('resources.user.import.line')}</th>
              <th scope="col">{t('resources.user.fields.nick')}</th>
              <th scope="col">{t('resources.user.import.result')}</th>
              <th scope="col">{t('resources.user.import.reasons')}</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((r) => (
              <tr key={r.line} className={`import-${r.status}`}>
                <td>{r.line}</td>
                <td>{r.nick}</td>
                <td>{t(`resources.user.import.status.${r.status}`)}</td>
                <td>{r.errors.map((e) => `${e.field}: ${t(e.message, { defaultValue: t(`errors.${e.cause}`, { defaultValue: e.message }) })}`).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
