import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { PublishForm } from '~/components/tms/publish-form'
import type { ErrorItem } from '#shared/schemas/error'
import { PublishInput } from '#shared/schemas/tms/task'
import { apiData, orErrorResponse, validBody } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { setFlash } from '~/server/flash.server'

export const handle = { title: 'pages.tms.task.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.task.edit')
  const options = await orErrorResponse(apiData(api.tms.task.options[':modelId'].$get({ param: { modelId: params.modelId ?? '' } })))
  return { options, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE, canPreview: Boolean(user.permissions.tms_model_get) }
}

/** Publishes; the API applies every rule again and answers the envelope when one fails. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.task.edit')
  let body: unknown
  try {
    body = JSON.parse(String((await request.formData()).get('publication') ?? ''))
  } catch {
    return data({ errors: [{ field: 'publication', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  }
  return apiResult(async () => {
    const task = await apiData(api.tms.task.$post({ json: validBody(PublishInput, body) }))
    throw redirect(`/tms/task/detail/${task.id}`, {
      headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: `tms.publish.done_${task.status}` }) },
    })
  })
}

export default function PublishRoute() {
  const { options, timeZone, canPreview } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.tms.task.edit')}</h1>
          <p className="hint">{options.model.title}</p>
        </div>
        <div className="toolbar-actions">
          {canPreview ? (
            <Link to={`/tms/task/preview/${options.model.id}`} className="btn">
              <Icon name="eye" /> {t('tms.model.preview')}
            </Link>
          ) : null}
          <Link to="/tms/task" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      <PublishForm options={options} timeZone={timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
