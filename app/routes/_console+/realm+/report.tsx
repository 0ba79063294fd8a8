import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import reportList from '~/lists/report'
import type { ErrorItem } from '#shared/schemas/error'
import { ReportUpdate, type ComplaintReport } from '#shared/schemas/report'
import { apiResult } from '~/server/api-action.server'
import { requireAccess } from '~/server/auth.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.realm.report' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, reportList)
  return { page, query, canEdit: user.permissions.mas_report_edit === true }
}

const Decision = v.object({ id: v.pipe(v.string(), v.minLength(1)), ...ReportUpdate.entries })

/** Records what staff decided about a report. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['mas_report_list', 'mas_report_edit'] })
  const body = v.safeParse(Decision, Object.fromEntries(await request.formData()))
  if (!body.success)
    return data({ ok: false, errors: [{ field: 'status', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  const { id, ...decision } = body.output
  return apiResult(async () => {
    await api.mas.report[':id'].$put({ param: { id }, json: decision })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}

export default function ReportRoute() {
  const { page, query, canEdit } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<typeof action>()
  const [open, setOpen] = useState<ComplaintReport | null>(null)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.push({ kind: 'success', message: 'resources.report.saved' })
      setOpen(null)
    } else toast.pushErrors(fetcher.data.errors)
  }, [fetcher.state, fetcher.data, toast])
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.report')}</h1>
      </div>
      <EntityTable<ComplaintReport>
        spec={reportList}
        page={page}
        query={query}
        title={t('pages.realm.report')}
        rowActions={(row) =>
          canEdit ? (
            <button type="button" className="btn btn-icon" onClick={() => setOpen(row)}>
              <Icon name="edit" label={t('resources.report.decide', { id: row.target_id })} />
            </button>
          ) : null
        }
      />
      <Dialog open={open !== null} onClose={() => setOpen(null)} title={t('resources.report.decide', { id: open?.target_id ?? '' })} labelledBy="report-dialog">
        {open ? (
          <fetcher.Form method="post">
            <input type="hidden" name="id" value={open.id} />
            <p>{open.message || t('resources.report.no_message')}</p>
            <div className="field">
              <label htmlFor="report-status">{t('resources.report.fields.status')}</label>
              <select id="report-status" className="input" name="status" defaultValue={open.status === 'open' ? 'resolved' : open.status}>
                {(['open', 'resolved', 'dismissed'] as const).map((s) => (
                  <option key={s} value={s}>
                    {t(`resources.report.status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="report-resolution">{t('resources.report.fields.resolution')}</label>
              <textarea id="report-resolution" className="input" name="resolution" rows={3} maxLength={2000} defaultValue={open.resolution} />
            </div>
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={() => setOpen(null)}>
                {t('settings.cancel')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={fetcher.state !== 'idle'}>
                {t('resources.report.save')}
              </button>
            </div>
          </fetcher.Form>
        ) : null}
      </Dialog>
    </>
  )
}

export const ErrorBoundary = RouteError
