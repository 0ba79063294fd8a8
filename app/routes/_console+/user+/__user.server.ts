import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import type { User } from '#shared/schemas/user'
import { RealmApiError, orErrorResponse, type RealmApi, apiData } from '~/server/api.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'

export interface RoleChoice {
  role: string
  description: string
  assignable: boolean
}
export interface ExtraInput {
  key: string
  label: string
  required: boolean
}

async function formExtras(api: RealmApi) {
  const [roles, extra] = await Promise.all([
    orErrorResponse(apiData(api.mas.user.roles.$get())),
    orErrorResponse(apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'user' } }))),
  ])
  return { roles: roles.items, extra: extra.items }
}

export async function userFormData(request: Request, context: AppLoadContext, mode: 'create' | 'edit', nick?: string) {
  const { api, user, realm } = await requireRoute(request, context, mode === 'create' ? 'user.create' : 'user.edit')
  const [extras, existing] = await Promise.all([
    formExtras(api),
    nick ? orErrorResponse(apiData(api.mas.user[':nick'].$get({ param: { nick } }))) : Promise.resolve(null),
  ])
  return {
    ...extras,
    user: existing,
    realm: realm.code ?? '',
    nickSuffix: realm.config?.nick_suffix ?? '',
    allowPicture: realm.config?.allow_custom_user_profile_picture === true,
    canDisable: user.permissions.mas_user_disable === true,
    self: existing?.nick === user.nick,
  }
}

const Save = v.object({ intent: v.literal('save'), values: v.record(v.string(), v.unknown()) })
const Disable = v.object({ intent: v.literal('disable'), disabled: v.boolean() })

/** Saves the user form, or disables/enables the user (edit screen); the API applies every rule. */
export async function saveUser(request: Request, context: AppLoadContext, mode: 'create' | 'edit', nick?: string) {
  const raw: unknown = await request.json().catch(() => null)
  const toggle = v.safeParse(Disable, raw)
  const { api } = toggle.success
    ? await requireAccess(request, context, { all: ['mas_user_edit', 'mas_user_disable'] })
    : await requireRoute(request, context, mode === 'create' ? 'user.create' : 'user.edit')
  const save = v.safeParse(Save, raw)
  if (!toggle.success && !save.success)
    return data({ errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  const path = `mas/user/${encodeURIComponent(nick ?? '')}`
  try {
    if (toggle.success) {
      await api.put(`${path}/disable`, { disabled: toggle.output.disabled })
      return { errors: [] as ErrorItem[], toggled: true }
    }
    const values = save.success ? save.output.values : {}
    const saved = mode === 'create' ? await apiData(api.mas.user.$post({ json: values as never })) : await api.put<User>(path, values)
    throw redirect('/user', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'resources.user.saved', values: { nick: saved.nick } }) } })
  } catch (err) {
    if (err instanceof RealmApiError) return data({ errors: err.errors }, { status: err.status })
    throw err
  }
}

const ListAction = v.variant('intent', [
  v.object({ intent: v.literal('disable'), nick: v.string(), disabled: v.boolean() }),
  v.object({ intent: v.literal('delete'), nick: v.string() }),
  v.object({ intent: v.literal('import'), csv: v.string(), dry_run: v.boolean() }),
])
const NEEDS = { disable: 'mas_user_disable', delete: 'mas_user_delete', import: 'mas_user_import' } as const

/** The list screen's actions: disable or enable, delete, CSV import (checked first with dry_run). */
export async function userListAction(request: Request, context: AppLoadContext) {
  const body = v.safeParse(ListAction, await request.json().catch(() => null))
  const { api } = await requireAccess(request, context, { all: ['mas_user_list', NEEDS[body.success ? body.output.intent : 'import']] })
  if (!body.success)
    return data(
      { ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[], report: null },
      { status: 400 },
    )
  const b = body.output
  try {
    if (b.intent === 'import')
      return { ok: true, errors: [] as ErrorItem[], report: await apiData(api.mas.user.import.$post({ json: { csv: b.csv, dry_run: b.dry_run } })) }
    if (b.intent === 'disable') await api.mas.user[':nick'].disable.$put({ param: { nick: b.nick }, json: { disabled: b.disabled } })
    else await api.mas.user[':nick'].$delete({ param: { nick: b.nick } })
    return { ok: true, errors: [] as ErrorItem[], report: null }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors, report: null }, { status: err.status })
    throw err
  }
}
