import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'

/** Downloads a model's export document (JSON that imports back identically); the model preview's permission. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['tms_model_get'] })
  const doc = await orErrorResponse(apiData(api.tms.model[':id'].export.$get({ param: { id: params.modelId ?? '' } })))
  const slug =
    doc.model.title
      .normalize('NFD')
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'model'
  return new Response(JSON.stringify(doc, null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="${slug}.json"`, 'Cache-Control': 'no-store' },
  })
}
