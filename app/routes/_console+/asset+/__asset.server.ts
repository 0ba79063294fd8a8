import { data, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { Asset } from '#shared/schemas/asset'
import type { ErrorItem } from '#shared/schemas/error'
import { orErrorResponse, apiData } from '~/server/api.server'
import { apiAction, apiResult } from '~/server/api-action.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { AssetCreateForm, AssetUpdateForm, assetFields, prepareAsset } from './__asset-fields'

export async function assetFormData(request: Request, context: AppLoadContext, id?: string) {
  const { api, user } = await requireRoute(request, context, id ? 'asset.edit' : 'asset.create')
  return {
    asset: id ? await orErrorResponse(apiData(api.asset[':id'].$get({ param: { id } }))) : null,
    canUpload: user.permissions.mas_file_upload === true,
    title: id ? 'pages.asset.edit' : 'pages.asset.create',
  }
}

/** What an edit sends: the values that differ from the stored asset. */
export function assetChanges(stored: Asset, value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k, x]) => x !== undefined && x !== (stored as Record<string, unknown>)[k]))
}

/** Creates or updates an asset (the kit form's action); the API keeps its uploaded file (persist) in the same write. */
export function saveAsset(request: Request, context: AppLoadContext, id?: string) {
  return apiAction(request, context, {
    route: id ? 'asset.edit' : 'asset.create',
    schema: id ? AssetUpdateForm : AssetCreateForm,
    fields: assetFields,
    prepare: prepareAsset,
    call: async (api, value) => {
      if (!id) return apiData(api.asset.$post({ json: value as v.InferOutput<typeof AssetCreateForm> }))
      const stored = await apiData(api.asset[':id'].$get({ param: { id } }))
      const changes = assetChanges(stored, value)
      return Object.keys(changes).length ? apiData(api.asset[':id'].$put({ param: { id }, json: changes })) : stored
    },
    redirect: '/asset',
    flash: (saved) => ({ kind: 'success', message: 'resources.asset.saved', values: { name: saved.name } }),
  })
}

/** Deletes an asset (its uploaded file goes back to temporary and is cleaned up later). */
export async function deleteAsset(request: Request, context: AppLoadContext) {
  const { api } = await requireAccess(request, context, { all: ['asset_asset_list', 'asset_asset_delete'] })
  const id = v.safeParse(v.pipe(v.string(), v.minLength(1), v.maxLength(40)), (await request.formData()).get('id'))
  if (!id.success)
    return data({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    await api.asset[':id'].$delete({ param: { id: id.output } })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}
