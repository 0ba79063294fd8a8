import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { RouteError } from '~/components/shell/route-error'
import { ModelPaper } from '~/components/tms/model-paper'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.model.preview' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.model.preview')
  return { model: await orErrorResponse(apiData(api.tms.model[':id'].$get({ param: { id: params.modelId ?? '' } }))) }
}

/** The model as the student will see it (no answers), printable. */
export default function ModelPreviewRoute() {
  const { model } = useLoaderData<typeof loader>()
  return <ModelPaper model={model} back={`/tms/model`} />
}

export const ErrorBoundary = RouteError
