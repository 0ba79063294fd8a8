import { data, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { UserCreate, UserUpdate, type User } from '#shared/schemas/user'
import { orErrorResponse, type RealmApi, apiData } from '~/server/api.server'
import { apiAction, apiResult } from '~/server/api-action.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { prepareUser, userFields } from './__user-fields'

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

const Disable = v.object({ intent: v.literal('disable'), disabled: v.boolean() })

/** Compared with the stored user, the fields an edit may change. */
const EDITABLE = ['name', 'email', 'phone', 'external_id', 'roles', 'supervisees', 'invisible', 'bot', 'hd_support'] as const

/** What an edit sends: the values that differ from the stored user (a new password and picture always). */
export function userChanges(stored: User, value: UserUpdate): UserUpdate {
  const out: Record<string, unknown> = {}
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
  for (const k of EDITABLE) if (value[k] !== undefined && !same(value[k], stored[k])) out[k] = value[k]
  const extra = value.extra ?? {}
  if (Object.entries(extra).some(([k, text]) => (stored.extra[k] ?? '') !== text)) out.extra = extra
  if (value.password) out.password = value.password
  if (value.avatar_file_id !== undefined) out.avatar_file_id = value.avatar_file_id
  return out as UserUpdate
}

/**
 * Saves the user form (a kit form: the same schema and fields as the screen; an edit sends only what changed), or,
 * posted as JSON from the edit screen's button, disables or enables the user. The API applies every rule.
 */
export async function saveUser(request: Request, context: AppLoadContext, mode: 'create' | 'edit', nick = '') {
  if (request.headers.get('content-type')?.includes('application/json')) {
    const toggle = v.safeParse(Disable, await request.json().catch(() => null))
    const { api } = await requireAccess(request, context, { all: ['mas_user_edit', 'mas_user_disable'] })
    if (!toggle.success)
      return data({ ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
    return apiResult(async () => {
      await api.mas.user[':nick'].disable.$put({ param: { nick }, json: { disabled: toggle.output.disabled } })
      return { ok: true, errors: [] as ErrorItem[], toggled: true }
    })
  }
  const { api } = await requireRoute(request, context, mode === 'create' ? 'user.create' : 'user.edit')
  const { extra } = await formExtras(api)
  const fields = userFields(extra, mode)
  return apiAction(request, context, {
    route: mode === 'create' ? 'user.create' : 'user.edit',
    schema: mode === 'create' ? UserCreate : UserUpdate,
    fields,
    prepare: prepareUser,
    hideFields: ['password'],
    call: async (api, value) => {
      if (mode === 'create') return apiData(api.mas.user.$post({ json: value as UserCreate }))
      const stored = await apiData(api.mas.user[':nick'].$get({ param: { nick } }))
      const changes = userChanges(stored, value)
      return Object.keys(changes).length ? apiData(api.mas.user[':nick'].$put({ param: { nick }, json: changes })) : stored
    },
    redirect: '/user',
    flash: (saved) => ({ kind: 'success', message: 'resources.user.saved', values: { nick: saved?.nick ?? nick } }),
  })
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
  return apiResult(
    async () => {
      if (b.intent === 'import')
        return { ok: true, errors: [] as ErrorItem[], report: await apiData(api.mas.user.import.$post({ json: { csv: b.csv, dry_run: b.dry_run } })) }
      if (b.intent === 'disable') await api.mas.user[':nick'].disable.$put({ param: { nick: b.nick }, json: { disabled: b.disabled } })
      else await api.mas.user[':nick'].$delete({ param: { nick: b.nick } })
      return { ok: true, errors: [] as ErrorItem[], report: null }
    },
    { report: null },
  )
}
