import type { AppLoadContext } from '@remix-run/cloudflare'
import { ExemptionBody, RealmCreateBody, RealmUpdateBody, RtcServersBody, WordFilterBody } from '#shared/schemas/realm-settings'
import { wordFilterFields } from '~/components/realm/word-filter-editor'
import { genesisSettingsFields, type ConfigChoice } from '~/components/realm/genesis-settings'
import { GenesisSettingsInput } from '#shared/schemas/lesson/genesis'
import { apiAction } from '~/server/api-action.server'
import { orErrorResponse, type RealmApi, apiData, orNull } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import type { RealmEditorProps } from './__realm-editor'
import { exemptionFields, rtcFields } from './__realm-panels'
import { SECRETS, WRITABLE, lockedValues, realmChanges, realmFields, realmPrepare } from './__realm-fields'

async function parentChoices(api: RealmApi, fallback: { code: string; name: string }) {
  const page = await forbiddenAsNull(apiData(api.mas.realm.$get({ query: { limit: 1000 } })))
  return page?.items ?? [fallback]
}

/** The editor's starting values: writable fields, secrets empty (their masks apart), hosts. */
function editorValues(realm: Record<string, unknown>): Pick<RealmEditorProps, 'initial' | 'secrets'> {
  const initial = Object.fromEntries(WRITABLE.map((f) => [f, SECRETS.includes(f) ? '' : realm[f]]))
  return { initial: { ...initial, hosts: realm.hosts ?? [] }, secrets: Object.fromEntries(SECRETS.map((f) => [f, String(realm[f] ?? '')])) }
}

/** A read the screen can do without: null when the user may not (403), so the rest of the page still works. */
const forbiddenAsNull = <T>(call: Promise<T>) => orNull(call, [403])

/** The realm's content-generation settings and the configurations its defaults may pick (none when not listable). */
async function genesisPanel(api: RealmApi) {
  const [settings, configs] = await Promise.all([
    apiData(api.cgs.settings.$get()),
    forbiddenAsNull(apiData(api.entity<ConfigChoice>('cgs/content_config').index.$get({ query: { limit: 1000 } }))),
  ])
  return { settings, configs: (configs?.items ?? []).map(({ id, type, title }) => ({ id, type, title })) }
}

export async function createData(request: Request, context: AppLoadContext): Promise<RealmEditorProps> {
  const { api, user, realm } = await requireRoute(request, context, 'realm.create')
  const [defaults, parents, roles] = await Promise.all([
    orErrorResponse(apiData(api.mas.realm.defaults.$get())),
    parentChoices(api, { code: realm.code ?? '', name: realm.config?.name ?? '' }),
    forbiddenAsNull(apiData(api.mas.permission.$get({ query: { limit: 1000 } }))),
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
  const detail = await orErrorResponse(apiData(api.mas.realm[':id'].$get({ param: { id: code } })))
  const current = detail.code === realm.code
  const [parents, words, exemption, rooms, rtc, genesis] = await Promise.all([
    parentChoices(api, { code: realm.code ?? '', name: realm.config?.name ?? '' }),
    forbiddenAsNull(apiData(api.mas.realm[':realm'].word_filter.$get({ param: { realm: code } }))),
    orErrorResponse(apiData(api.mas.realm[':realm'].exemption.$get({ param: { realm: code } }))),
    forbiddenAsNull(
      apiData(
        api
          .entity<{ id: string; name: string; enabled: boolean }>(`mas/realm/${encodeURIComponent(code)}/metaverse_room`)
          .index.$get({ query: { limit: 1000 } }),
      ),
    ),
    forbiddenAsNull(apiData(api.mas.realm[':realm'].rtc.$get({ param: { realm: code } }))),
    current ? genesisPanel(api) : null,
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
      current,
      wordFilter: words?.sentences ?? null,
      canEditWordFilter: user.permissions.mas_word_filter_edit === true,
      exemption: exemption.domains,
      rooms: rooms?.items ?? null,
      rtc,
      canEditRtc: user.permissions.mas_realm_edit === true && user.permissions.mas_realm_edit_infra === true,
      genesis,
    },
  }
}

/**
 * The edit screen's panels (kit forms posting `intent`): the realm's word filter or exemption domains, answered on
 * the panel's form.
 */
function panelAction(request: Request, context: AppLoadContext, intent: 'word_filter' | 'exemption' | 'rtc' | 'genesis', code: string) {
  const opts = { route: 'realm.edit', onSuccess: (_: unknown, submission: { reply: () => unknown }) => submission.reply() }
  if (intent === 'genesis')
    return apiAction(request, context, {
      ...opts,
      schema: GenesisSettingsInput,
      fields: genesisSettingsFields([]).all,
      call: (api, json, { realm }) => {
        // The settings API edits the realm in use: the panel is offered only there.
        if (realm.code !== code) throw new Response(null, { status: 404 })
        return apiData(api.cgs.settings.$put({ json }))
      },
    })
  if (intent === 'rtc')
    return apiAction(request, context, {
      ...opts,
      schema: RtcServersBody,
      fields: rtcFields,
      hideFields: ['turn_credential'],
      call: (api, json) => apiData(api.mas.realm[':realm'].rtc.$put({ param: { realm: code }, json })),
    })
  return intent === 'word_filter'
    ? apiAction(request, context, {
        ...opts,
        schema: WordFilterBody,
        fields: wordFilterFields,
        call: (api, json) => apiData(api.mas.realm[':realm'].word_filter.$put({ param: { realm: code }, json })),
      })
    : apiAction(request, context, {
        ...opts,
        schema: ExemptionBody,
        fields: exemptionFields,
        call: (api, json) => apiData(api.mas.realm[':realm'].exemption.$put({ param: { realm: code }, json })),
      })
}

/** Saves the editor (create or update: a kit form, only what changed is sent), or a panel of the edit screen. */
export async function realmAction(request: Request, context: AppLoadContext, mode: 'create' | 'edit', code = '') {
  const intent = (await request.clone().formData()).get('intent')
  if (mode === 'edit' && (intent === 'word_filter' || intent === 'exemption' || intent === 'rtc' || intent === 'genesis'))
    return panelAction(request, context, intent, code)
  const { api, user, realm } = await requireRoute(request, context, mode === 'create' ? 'realm.create' : 'realm.edit')
  // What the form started from: the defaults of a new realm, or the stored realm.
  const base =
    mode === 'create'
      ? editorValues({
          ...(await orErrorResponse(apiData(api.mas.realm.defaults.$get()))),
          parent_code: user.permissions.mas_realm_list_all === true ? null : realm.code,
        }).initial
      : editorValues(await orErrorResponse(apiData(api.mas.realm[':id'].$get({ param: { id: code } })))).initial
  const locked = lockedValues(base, user.permissions.mas_realm_edit_infra === true)
  return apiAction(request, context, {
    route: mode === 'create' ? 'realm.create' : 'realm.edit',
    schema: mode === 'create' ? RealmCreateBody : RealmUpdateBody,
    fields: realmFields(mode),
    prepare: realmPrepare(base, locked),
    hideFields: [...SECRETS, 'admin.password'],
    call: (api, value) => {
      const json = realmChanges(base, value, mode)
      return mode === 'create'
        ? apiData(api.mas.realm.$post({ json: json as RealmCreateBody }))
        : apiData(api.mas.realm[':id'].$put({ param: { id: code }, json }))
    },
    redirect: (saved) => `/realm/edit/${encodeURIComponent(saved.code)}`,
    flash: (saved) => ({ kind: 'success', message: mode === 'create' ? 'resources.realm.created' : 'resources.realm.saved', values: { name: saved.name } }),
  })
}
