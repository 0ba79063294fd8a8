import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { EMPTY_MODEL, ModelEditor } from '~/components/tms/model-editor'
import { requireRoute } from '~/server/auth.server'
import { editorRefs, modelEditorAction } from './__model.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.model.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'tms.model.create')
  return editorRefs(api, user)
}

export const action = ({ request, context }: ActionFunctionArgs) => modelEditorAction(request, context, 'tms.model.create')

export default function ModelCreateRoute() {
  const { categories, genres, skills, canUseBank } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.tms.model.create')}</h1>
        <Link to="/tms/model" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <ModelEditor initial={EMPTY_MODEL} categories={categories} refs={{ genres, skills }} canUseBank={canUseBank} />
    </>
  )
}

export const ErrorBoundary = RouteError
