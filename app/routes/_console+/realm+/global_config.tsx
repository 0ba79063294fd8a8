import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { ChoicesField, LinesField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { SIGNIN_METHODS } from '#shared/schemas/realm'
import { GlobalConfig, GlobalConfigUpdate } from '#shared/schemas/realm-settings'
import { RealmApiError, orErrorResponse } from '~/server/api.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import * as v from 'valibot'

export const handle = { title: 'pages.realm.global_config' }

type Stored = GlobalConfig & { updated_at: string; updated_by: string }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'realm.global_config')
  const config = await orErrorResponse(api.get<Stored>('mas/config'))
  return { config, canEdit: user.permissions.mas_config_edit === true && user.permissions.mas_realm_list_all === true }
}

/** Saves the global configuration (the API also needs mas_realm_list_all: it applies to every realm). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, { all: ['mas_config_get', 'mas_config_edit'] })
  const body = v.safeParse(GlobalConfigUpdate, await request.json().catch(() => null))
  if (!body.success)
    return data({ ok: false, errors: [{ field: 'form', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  try {
    await api.put('mas/config', body.output)
    return { ok: true, errors: [] as ErrorItem[] }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors }, { status: err.status })
    throw err
  }
}

export default function GlobalConfigRoute() {
  const { config, canEdit } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  const toast = useToast()
  const fetcher = useFetcher<typeof action>()
  const { updated_at, updated_by, ...initial } = config
  const [values, setValues] = useState<GlobalConfig>(initial)
  const form = useLiveValidation(GlobalConfig, values, fetcher.data?.errors)
  const changed = changedValues(initial, values)
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(!saving && Object.keys(changed).length > 0)
  const set =
    <K extends keyof GlobalConfig>(k: K) =>
    (value: GlobalConfig[K]) =>
      setValues((x) => ({ ...x, [k]: value }))
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.push({ kind: 'success', message: 'global_config.saved' })
    else toast.pushErrors(fetcher.data.errors)
  }, [fetcher.state, fetcher.data, toast])
  const common = (k: keyof GlobalConfig) => ({
    label: t(`global_config.fields.${k}`),
    hint: t(`global_config.hints.${k}`),
    error: form.errorOf(k),
    onBlur: () => form.touch(k),
    disabled: !canEdit,
  })
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.realm.global_config')}</h1>
          <p className="hint">
            {updated_by ? t('resources.role.updated', { by: updated_by, at: formatTime(updated_at, clock) }) : t('global_config.never_saved')}
          </p>
        </div>
      </div>
      {canEdit ? null : <p className="alert alert-info">{t('global_config.read_only')}</p>}
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (form.attempt()) fetcher.submit(jsonBody(changed), { method: 'post', encType: 'application/json' })
        }}
      >
        <div className="field-grid">
          <LinesField {...common('default_word_filter')} value={values.default_word_filter} onChange={set('default_word_filter')} rows={6} />
          <LinesField {...common('blocked_media_hosts')} value={values.blocked_media_hosts} onChange={set('blocked_media_hosts')} rows={6} />
          <TextField {...common('default_time_zone')} value={values.default_time_zone} onChange={set('default_time_zone')} />
          <ChoicesField
            {...common('default_allowed_signin')}
            value={values.default_allowed_signin}
            onChange={(x) => set('default_allowed_signin')(x as GlobalConfig['default_allowed_signin'])}
            options={SIGNIN_METHODS.map((m) => ({ value: m, label: t(`resources.realm.choices.${m}`) }))}
          />
        </div>
        {canEdit ? (
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving || Object.keys(changed).length === 0}>
              {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('global_config.save')}
            </button>
          </div>
        ) : null}
        {guard}
      </form>
    </>
  )
}

export const ErrorBoundary = RouteError
