import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { RouteError } from '~/components/shell/route-error'
import { ModelPaper } from '~/components/tms/model-paper'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { formulaLinks } from '~/components/tms/formula-styles'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.model.resolution' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'tms.model.resolution')
  return { model: await orErrorResponse(apiData(api.tms.model[':id'].$get({ param: { id: params.modelId ?? '' } }))) }
}

/** The model with its resolution: correct options, expected answers and comments (printable). */
export default function ModelResolutionRoute() {
  const { model } = useLoaderData<typeof loader>()
  return <ModelPaper model={model} resolution back={`/tms/model`} />
}

export const ErrorBoundary = RouteError
