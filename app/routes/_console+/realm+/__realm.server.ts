import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { RealmCode, type ListPage } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmUpdate, realmEntity } from '#shared/schemas/realm'
import type { RealmDetail } from '#shared/schemas/realm-settings'
import { RealmApiError, orErrorResponse, type RealmApi, apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { setFlash } from '~/server/flash.server'
import type { RealmEditorProps } from './__realm-editor'

const WRITABLE = Object.keys(RealmUpdate.entries)
const SECRETS = WRITABLE.filter((f) => realmEntity.fields[f as keyof typeof realmEntity.fields]?.type === 'secret')

/** A read the screen can do without: null when the user may not (403), so the rest of the page still works. */
export async function optional<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 403) return null
    throw err
  }
}

async function parentChoices(api: RealmApi, fallback: { code: string; name: string }) {
  const page = await optional(apiData(api.mas.realm.$get({ query: { limit: 1000 } })))
  return page?.items ?? [fallback]
}

/** The editor's starting values: writable fields, secrets empty (their masks apart), hosts. */
function editorValues(realm: Record<string, unknown>): Pick<RealmEditorProps, 'initial' | 'secrets'> {
  const initial = Object.fromEntries(WRITABLE.map((f) => [f, SECRETS.includes(f) ? '' : realm[f]]))
  return { initial: { ...initial, hosts: realm.hosts ?? [] }, secrets: Object.fromEntries(SECRETS.map((f) => [f, String(realm[f] ?? '')])) }
}

export async function createData(request: Request, context: AppLoadContext): Promise<RealmEditorProps> {
  const { api, user, realm } = await requireRoute(request, context, 'realm.create')
  const [defaults, parents, roles] = await Promise.all([
    orErrorResponse(apiData(api.mas.realm.defaults.$get())),
    parentChoices(api, { code: realm.code ?? '', name: realm.config?.name ?? '' }),
    optional(apiData(api.mas.permission.$get({ query: { limit: 1000 } }))),
  ])
  const topLevel = user.permissions.mas_realm_list_all === true
  const { initial, secrets } = editorValues({ ...defaults, parent_code: topLevel ? null : realm.code })
  return {
    mode: 'create',
    initial: { ...initial, code: '', name: '' },
    secrets,
    parents,
    topLevel,
    canInfra: user.permissions.mas_realm_edit_infra === true,
    roles: roles?.items.map((r) => r.role) ?? null,
  }
}

export async function editData(
  request: Request,
  context: AppLoadContext,
  code: string,
): Promise<RealmEditorProps & { code: string; name: string; updated_at: string }> {
  const { api, user, realm } = await requireRoute(request, context, 'realm.edit')
  const path = `mas/realm/${encodeURIComponent(code)}`
  const detail = await orErrorResponse(api.get<RealmDetail>(path))
  const [parents, words, exemption, rooms] = await Promise.all([
    parentChoices(api, { code: realm.code ?? '', name: realm.config?.name ?? '' }),
    optional(api.get<{ sentences: string[] }>(`${path}/word_filter`)),
    orErrorResponse(api.get<{ domains: string[] }>(`${path}/exemption`)),
    optional(api.get<ListPage<{ id: string; name: string; enabled: boolean }>>(`${path}/metaverse_room`, { limit: 1000 })),
  ])
  return {
    mode: 'edit',
    code: detail.code,
    name: detail.name,
    updated_at: detail.updated_at,
    ...editorValues(detail),
    parents: parents.filter((p) => p.code !== detail.code),
    topLevel: user.permissions.mas_realm_list_all === true,
    canInfra: user.permissions.mas_realm_edit_infra === true,
    roles: null,
    panels: {
      code: detail.code,
      current: detail.code === realm.code,
      wordFilter: words?.sentences ?? null,
      canEditWordFilter: user.permissions.mas_word_filter_edit === true,
      exemption: exemption.domains,
      rooms: rooms?.items ?? null,
    },
  }
}

const Action = v.variant('intent', [
  v.object({ intent: v.literal('save'), values: v.record(v.string(), v.unknown()) }),
  v.object({ intent: v.literal('word_filter'), realm: RealmCode, sentences: v.array(v.string()) }),
  v.object({ intent: v.literal('exemption'), realm: RealmCode, domains: v.array(v.string()) }),
])

const failed = (errors: ErrorItem[], status = 400) => data({ ok: false, errors }, { status })

/** Saves the editor (create or update), the word filter or the exemption domains; the API checks every rule. */
export async function realmAction(request: Request, context: AppLoadContext, mode: 'create' | 'edit', code?: string) {
  const { api } = await requireRoute(request, context, mode === 'create' ? 'realm.create' : 'realm.edit')
  const parsed = v.safeParse(Action, await request.json().catch(() => null))
  if (!parsed.success) return failed([{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }])
  const body = parsed.output
  try {
    if (body.intent === 'word_filter') {
      await api.mas.realm[':realm'].word_filter.$put({ param: { realm: body.realm }, json: { sentences: body.sentences } })
      return { ok: true, errors: [] as ErrorItem[] }
    }
    if (body.intent === 'exemption') {
      await api.mas.realm[':realm'].exemption.$put({ param: { realm: body.realm }, json: { domains: body.domains } })
      return { ok: true, errors: [] as ErrorItem[] }
    }
    const saved =
      mode === 'create'
        ? await apiData(api.mas.realm.$post({ json: body.values }))
        : await apiData(api.mas.realm[':id'].$put({ param: { id: code ?? '' }, json: body.values }))
    const flash = await setFlash({
      kind: 'success',
      message: mode === 'create' ? 'resources.realm.created' : 'resources.realm.saved',
      values: { name: saved.name },
    })
    throw redirect(`/realm/edit/${encodeURIComponent(saved.code)}`, { headers: { 'Set-Cookie': flash } })
  } catch (err) {
    if (err instanceof RealmApiError) return failed(err.errors, err.status)
    throw err
  }
}
