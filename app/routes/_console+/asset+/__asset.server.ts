import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmApiError, orErrorResponse, apiData } from '~/server/api.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

export async function assetFormData(request: Request, context: AppLoadContext, id?: string) {
  const { api, user } = await requireRoute(request, context, id ? 'asset.edit' : 'asset.create')
  return {
    asset: id ? await orErrorResponse(apiData(api.asset[':id'].$get({ param: { id } }))) : null,
    canUpload: user.permissions.mas_file_upload === true,
    title: id ? 'pages.asset.edit' : 'pages.asset.create',
  }
}

/** Creates or updates an asset; the API keeps its uploaded file (persist) in the same write. */
export async function saveAsset(request: Request, context: AppLoadContext, id?: string) {
  const { api } = await requireRoute(request, context, id ? 'asset.edit' : 'asset.create')
  const body = v.safeParse(v.record(v.string(), v.unknown()), await request.json().catch(() => null))
  if (!body.success) return data({ errors: [{ field: 'name', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  try {
    const saved = id ? await apiData(api.asset[':id'].$put({ param: { id }, json: body.output })) : await apiData(api.asset.$post({ json: body.output }))
    throw redirect('/asset', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'resources.asset.saved', values: { name: saved.name } }) } })
  } catch (err) {
    if (err instanceof RealmApiError) return data({ errors: err.errors }, { status: err.status })
    throw err
  }
}

/** Deletes an asset (its uploaded file goes back to temporary and is cleaned up later). */
export async function deleteAsset(request: Request, context: AppLoadContext) {
  const { api } = await requireAccess(request, context, { all: ['asset_asset_list', 'asset_asset_delete'] })
  const id = v.safeParse(v.pipe(v.string(), v.minLength(1), v.maxLength(40)), (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  try {
    await api.asset[':id'].$delete({ param: { id: id.output } })
    return { ok: true, errors: [] as ErrorItem[] }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
}
