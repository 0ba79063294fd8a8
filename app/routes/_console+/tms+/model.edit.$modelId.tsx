import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { ModelEditor } from '~/components/tms/model-editor'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { editorRefs, modelEditorAction } from './__model.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.model.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'tms.model.edit')
  const model = await orErrorResponse(apiData(api.tms.model[':id'].$get({ param: { id: params.modelId ?? '' } })))
  return {
    model,
    ...(await editorRefs(api, user)),
    canPreview: Boolean(user.permissions.tms_model_get),
    canPublish: Boolean(user.permissions.tms_task_publish),
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => modelEditorAction(request, context, 'tms.model.edit', params.modelId)

export default function ModelEditRoute() {
  const { model, categories, genres, skills, canUseBank, canPreview, canPublish } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.tms.model.edit')}: {model.title}
          </h1>
          <p className="hint">{t('tms.editor.version', { version: String(model.version), count: model.published_count })}</p>
        </div>
        <div className="toolbar-actions">
          {canPreview ? (
            <Link to={`/tms/model/preview/${model.id}`} className="btn">
              <Icon name="eye" /> {t('tms.model.preview')}
            </Link>
          ) : null}
          {canPublish ? (
            <Link to={`/tms/task/edit/${model.id}`} className="btn">
              <Icon name="send" /> {t('tms.model.publish')}
            </Link>
          ) : null}
          <Link to="/tms/model" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      {model.published_count > 0 ? (
        <p className="alert alert-info" role="note">
          {t('tms.editor.versioning_note', { count: model.published_count, version: String(model.version + 1) })}
        </p>
      ) : null}
      <ModelEditor
        key={`${model.id}/${model.updated_at}`}
        initial={{ ...model, questions: model.questions as unknown as Record<string, unknown>[] }}
        categories={categories}
        refs={{ genres, skills }}
        canUseBank={canUseBank}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
