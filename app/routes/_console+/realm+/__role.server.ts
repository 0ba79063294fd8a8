import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { fieldErrors } from '#shared/schemas/auth'
import { PERMISSIONS, type PermissionMap } from '#shared/schemas/permission'
import { RoleName } from '#shared/schemas/role'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'
import type { RoleEditorResult } from './__role-editor'

export type RoleObject = { realm: string; role: string; description: string; updated_at: string; updated_by: string } & PermissionMap

/** The permissions an editor may grant or revoke: those they hold (the API's grant ceiling). */
export const grantableBy = (permissions: PermissionMap): string[] => PERMISSIONS.filter((p) => permissions[p] === true)

/**
 * Creates or updates a role from the editor's form: name, description and the granted permissions. Sent: every
 * permission the editor holds, on or off as ticked, and every other one the form carries as on (a role's permissions
 * beyond the editor, unchanged, pass the API's ceiling; one ticked while the editor lost it is refused, not dropped).
 * Permissions beyond the editor that the form leaves out are not sent, so the API keeps them as they are.
 */
export async function saveRole(request: Request, context: AppLoadContext, mode: 'create' | 'edit', realm?: string) {
  const { api, user } = await requireRoute(request, context, mode === 'create' ? 'role.create' : 'role.edit')
  const form = await request.formData()
  const name = v.safeParse(RoleName, form.get('role') ?? '')
  if (!name.success)
    return data<RoleEditorResult>({ fieldErrors: fieldErrors(name.issues).form ? { role: name.issues[0].message } : fieldErrors(name.issues) }, { status: 400 })
  const granted = new Set(form.getAll('permission').map(String))
  const flags = {
    ...Object.fromEntries(grantableBy(user.permissions).map((p) => [p, granted.has(p)])),
    ...Object.fromEntries(PERMISSIONS.filter((p) => granted.has(p)).map((p) => [p, true])),
  }
  const body = { description: String(form.get('description') ?? ''), ...flags }
  const refused = await apiResult(async () => {
    if (mode === 'create') await api.mas.permission.$post({ json: { ...body, role: name.output, realm } })
    else await api.mas.permission[':role'].$put({ param: { role: name.output }, query: { realm }, json: body })
    return null
  })
  if (refused) return refused
  throw redirect('/realm/role', {
    headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'resources.role.saved', values: { role: name.output } }) },
  })
}
