import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { Category } from '#shared/schemas/category'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmApiError, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

/** Every category as `{ id, label }` with its path, for the parent picker (a category's own subtree excluded). */
export function parentOptions(roots: Category[], exclude?: string): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = []
  const walk = (nodes: Category[], path: string[]) => {
    for (const n of nodes) {
      if (n.id === exclude) continue
      out.push({ id: n.id, label: [...path, n.name].join(' › ') })
      walk(n.children ?? [], [...path, n.name])
    }
  }
  walk(roots, [])
  return out
}

export async function categoryFormData(request: Request, context: AppLoadContext, mode: 'create' | 'edit', id?: string) {
  const { api } = await requireRoute(request, context, mode === 'create' ? 'realm.category.create' : 'realm.category.edit')
  const { items } = await orErrorResponse(api.get<{ items: Category[] }>('room/category/with-children'))
  const category = id ? await orErrorResponse(api.get<Category>(`room/category/${encodeURIComponent(id)}`)) : null
  const parent = new URL(request.url).searchParams.get('parent')
  return {
    category: category ?? { id: '', name: '', parent: parent && parentOptions(items).some((p) => p.id === parent) ? parent : null, priority: 0 },
    parents: parentOptions(items, id),
  }
}

const Body = v.object({ name: v.string(), parent: v.nullable(v.string()), priority: v.number() })

/** Creates or updates a category of the current realm (the API adds the realm and refuses cycles). */
export async function saveCategory(request: Request, context: AppLoadContext, mode: 'create' | 'edit', id?: string) {
  const { api } = await requireRoute(request, context, mode === 'create' ? 'realm.category.create' : 'realm.category.edit')
  const body = v.safeParse(Body, await request.json().catch(() => null))
  if (!body.success) return data({ errors: [{ field: 'name', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  try {
    const saved =
      mode === 'create'
        ? await api.post<Category>('room/category', body.output)
        : await api.put<Category>(`room/category/${encodeURIComponent(id ?? '')}`, body.output)
    throw redirect('/realm/category', {
      headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'resources.category.saved', values: { name: saved.name } }) },
    })
  } catch (err) {
    if (err instanceof RealmApiError) return data({ errors: err.errors }, { status: err.status })
    throw err
  }
}
