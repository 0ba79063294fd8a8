import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { RouteError } from '~/components/shell/route-error'
import { ModelPaper } from '~/components/tms/model-paper'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.task.preview' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.task.preview')
  return { model: await orErrorResponse(apiData(api.tms.model[':id'].$get({ param: { id: params.modelId ?? '' } }))) }
}

/** The model about to be published, as the student will see it. */
export default function TaskPreviewRoute() {
  const { model } = useLoaderData<typeof loader>()
  return <ModelPaper model={model} back={`/tms/task/edit/${model.id}`} />
}

export const ErrorBoundary = RouteError
