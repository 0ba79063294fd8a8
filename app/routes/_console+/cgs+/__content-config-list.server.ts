import { data, type AppLoadContext } from '@remix-run/cloudflare'
import { deleteRow } from '~/server/entity-form.server'
import { requireRoute } from '~/server/auth.server'
import { loadList } from '~/server/list.server'
import { contentConfigList } from '~/lists/cgs-content-config'
import { configType } from './__content-config'

/** The list of every type's configurations (`type` absent) or one type's, with the user's create, edit and delete rights. */
export async function configList(request: Request, context: AppLoadContext, rawType?: string) {
  // The gate before the path: a user without the permission is sent away, whatever type the address names.
  if (rawType !== undefined) await requireRoute(request, context, 'cgs.content_config.type')
  const type = rawType === undefined ? undefined : configType(rawType)
  const { page, query, user } = await loadList(request, context, contentConfigList(type))
  const p = user.permissions
  return data({
    type: type ?? null,
    page,
    query,
    canCreate: !!p.cgs_content_config_create,
    canEdit: !!p.cgs_content_config_edit,
    canDelete: !!p.cgs_content_config_delete,
  })
}

export const configDelete = (request: Request, context: AppLoadContext, route: string) =>
  deleteRow(request, context, route, (api, id) => api.entity('cgs/content_config')[':id'].$delete({ param: { id } }))
