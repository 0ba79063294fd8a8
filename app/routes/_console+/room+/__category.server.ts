import type { AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { CategoryNode } from '~/components/realm/category-tree'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import type { RealmApi } from '~/server/api.server'
import { CategoryFormInput } from './__category-form'

/**
 * The tree's nodes, read from the API's answer. The answer nests itself (a node's `children` are nodes), which the
 * typed client (hono's JSONParsed) types as plain JSON below the first level, so the screens read it through this
 * one recursive schema instead of asserting a type.
 */
export const CategoryNodes: v.GenericSchema<CategoryNode[]> = v.array(
  v.object({
    id: v.string(),
    name: v.string(),
    parent: v.nullable(v.string()),
    priority: v.number(),
    children: v.optional(v.lazy(() => CategoryNodes)),
  }),
)

/** Every category as `{ id, label }` with its path, for the parent picker (a category's own subtree excluded). */
export function parentOptions(roots: CategoryNode[], exclude?: string): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = []
  const walk = (nodes: CategoryNode[], path: string[]) => {
    for (const n of nodes) {
      if (n.id === exclude) continue
      out.push({ id: n.id, label: [...path, n.name].join(' › ') })
      walk(n.children ?? [], [...path, n.name])
    }
  }
  walk(roots, [])
  return out
}

/** Every category of the realm as a tree, read through `CategoryNodes`. */
export async function categoryTree(api: RealmApi): Promise<CategoryNode[]> {
  return v.parse(CategoryNodes, (await orErrorResponse(apiData(api.room.category['with-children'].$get({ query: {} })))).items)
}

export async function categoryFormData(request: Request, context: AppLoadContext, mode: 'create' | 'edit', id?: string) {
  const { api, realm } = await requireRoute(request, context, mode === 'create' ? 'room.category.create' : 'room.category.edit')
  const items = await categoryTree(api)
  const category = id ? await orErrorResponse(apiData(api.room.category[':id'].$get({ param: { id }, query: {} }))) : null
  const parent = new URL(request.url).searchParams.get('parent')
  return {
    category: category ?? { id: '', name: '', parent: parent && parentOptions(items).some((p) => p.id === parent) ? parent : null, priority: 0 },
    parents: parentOptions(items, id),
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

/** Creates or updates a category of the current realm (the API adds the realm and refuses cycles). */
export function saveCategory(request: Request, context: AppLoadContext, mode: 'create' | 'edit', id?: string) {
  return apiAction(request, context, {
    route: mode === 'create' ? 'room.category.create' : 'room.category.edit',
    schema: CategoryFormInput,
    call: (api, body) =>
      apiData(mode === 'create' ? api.room.category.$post({ json: body }) : api.room.category[':id'].$put({ param: { id: id ?? '' }, json: body })),
    redirect: '/room/category',
    flash: (saved) => ({ kind: 'success', message: 'resources.category.saved', values: { name: saved.name } }),
  })
}
