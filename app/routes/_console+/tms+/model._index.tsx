import type { Category } from '#shared/schemas/tms/category'
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData } from '~/server/api.server'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import { withFilterOptions } from '~/lib/list-format'
import modelList from '~/lists/tms-model'
import type { ErrorItem } from '#shared/schemas/error'
import type { Model } from '#shared/schemas/tms/model'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { modelListAction } from './__model-list.server'

export const handle = { title: 'pages.tms.model.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, modelList)
  const { api } = await requireRoute(request, context, 'tms.model.list')
  const p = user.permissions
  const categories = p.tms_category_list ? (await apiData(api.entity<Category>('tms/category').index.$get({ query: { limit: 1000 } }))).items : []
  return {
    page,
    query,
    categories: categories.filter((c) => c.selectable).map((c) => ({ label: c.name, value: c.id })),
    can: { create: p.tms_model_create, edit: p.tms_model_edit, get: p.tms_model_get, remove: p.tms_model_delete, publish: p.tms_task_publish },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => modelListAction(request, context)

export default function ModelListRoute() {
  const { page, query, categories, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; intent: string; errors: ErrorItem[] }>()
  const [remove, setRemove] = useState<Model | null>(null)
  const [importing, setImporting] = useState(false)
  const [importError, setImportError] = useState<string | null>(null)
  const spec = withFilterOptions(modelList, { category: categories })

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'tms.list.deleted' })
    else toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: `tms.model.${fetcher.data.intent}_failed` })
  }, [fetcher.state, fetcher.data, toast, t])

  async function onImport(file: File | undefined) {
    setImportError(null)
    if (!file) return
    const text = await file.text()
    try {
      JSON.parse(text)
    } catch {
      setImportError(t('validation.tms.export_format'))
      return
    }
    fetcher.submit({ intent: 'import', document: text }, { method: 'post' })
    setImporting(false)
  }

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.tms.model.list')}</h1>
        <div className="toolbar-actions">
          {can.create ? (
            <button type="button" className="btn" onClick={() => setImporting(true)}>
              <Icon name="upload" /> {t('tms.model.import')}
            </button>
          ) : null}
          {can.create ? (
            <Link to="/tms/model/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.tms.model.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <EntityTable<Model>
        spec={spec}
        page={page}
        query={query}
        title={t('pages.tms.model.list')}
        rowActions={(m) => (
          <>
            {can.edit ? (
              <Link className="btn btn-icon" to={`/tms/model/edit/${m.id}`}>
                <Icon name="edit" label={t('tms.list.edit', { name: m.title })} />
              </Link>
            ) : null}
            {can.get ? (
              <Link className="btn btn-icon" to={`/tms/model/preview/${m.id}`}>
                <Icon name="eye" label={t('tms.model.preview_of', { name: m.title })} />
              </Link>
            ) : null}
            {can.get ? (
              <Link className="btn btn-icon" to={`/tms/model/resolution/${m.id}`}>
                <Icon name="check" label={t('tms.model.resolution_of', { name: m.title })} />
              </Link>
            ) : null}
            {can.publish ? (
              <Link className="btn btn-icon" to={`/tms/task/edit/${m.id}`}>
                <Icon name="send" label={t('tms.model.publish_of', { name: m.title })} />
              </Link>
            ) : null}
            {can.get ? (
              <a className="btn btn-icon" href={`/tms/model/export/${m.id}`} download>
                <Icon name="download" label={t('tms.model.export_of', { name: m.title })} />
              </a>
            ) : null}
            {can.create ? (
              <button
                type="button"
                className="btn btn-icon"
                disabled={fetcher.state !== 'idle'}
                onClick={() => fetcher.submit({ intent: 'duplicate', id: m.id, title: t('tms.model.copy_title', { title: m.title }) }, { method: 'post' })}
              >
                <Icon name="copy" label={t('tms.model.duplicate_of', { name: m.title })} />
              </button>
            ) : null}
            {can.remove ? (
              <button type="button" className="btn btn-icon" onClick={() => setRemove(m)}>
                <Icon name="trash" label={t('tms.list.delete', { name: m.title })} />
              </button>
            ) : null}
          </>
        )}
      />
      <ConfirmDialog
        open={remove !== null}
        title={t('tms.list.delete', { name: remove?.title ?? '' })}
        message={
          remove?.published_count
            ? t('tms.model.delete_blocked', { count: remove.published_count })
            : t('tms.list.delete_confirm', { name: remove?.title ?? '' })
        }
        confirmLabel={t('tms.list.delete_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setRemove(null)}
        onConfirm={() => {
          if (remove) fetcher.submit({ intent: 'delete', id: remove.id }, { method: 'post' })
          setRemove(null)
        }}
      />
      <Dialog open={importing} onClose={() => setImporting(false)} title={t('tms.model.import')} labelledBy="import-title">
        <div className="field">
          <label htmlFor="import-file">{t('tms.model.import_file')}</label>
          <input
            id="import-file"
            type="file"
            accept=".json,application/json"
            className="input"
            onChange={(e) => void onImport(e.currentTarget.files?.[0])}
            aria-describedby="import-hint"
          />
          <p className={importError ? 'error' : 'hint'} id="import-hint" role={importError ? 'alert' : undefined}>
            {importError ?? t('tms.model.import_hint')}
          </p>
        </div>
      </Dialog>
    </>
  )
}

export const ErrorBoundary = RouteError
