import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SpecFields } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { useClock } from '~/components/ui/clock'
import type { FieldSpec } from '~/lib/form-fields'
import { formatTime } from '~/lib/format'
import { SIGNIN_METHODS } from '#shared/schemas/realm'
import { GlobalConfigUpdate, type GlobalConfig } from '#shared/schemas/realm-settings'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { orErrorResponse, apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.realm.global_config' }

const field = (name: keyof GlobalConfig, kind: FieldSpec['kind'], more: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  kind,
  label: `global_config.fields.${name}`,
  hint: `global_config.hints.${name}`,
  ...more,
})

/** The global configuration's fields: sentences and hosts one per line, the default zone and sign-in methods. */
const globalConfigFields: FieldSpec[] = [
  field('default_word_filter', 'lines'),
  field('blocked_media_hosts', 'lines'),
  field('default_time_zone', 'text'),
  field('default_allowed_signin', 'checkboxes', { options: SIGNIN_METHODS.map((m) => ({ value: m, label: `resources.realm.choices.${m}` })) }),
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'realm.global_config')
  const config = await orErrorResponse(apiData(api.mas.config.$get()))
  return {
    config,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canEdit: user.permissions.mas_config_edit === true && user.permissions.mas_realm_list_all === true,
  }
}

/** Saves the global configuration (the API also needs mas_realm_list_all: it applies to every realm). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    access: { all: ['mas_config_get', 'mas_config_edit'] },
    schema: GlobalConfigUpdate,
    fields: globalConfigFields,
    call: (api, body) => apiData(api.mas.config.$put({ json: body })),
    flash: 'global_config.saved',
  })

export default function GlobalConfigRoute() {
  const { config, timeZone, canEdit } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const clock = useClock()
  const { updated_at, updated_by } = config
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
      <KitForm
        key={updated_at}
        schema={GlobalConfigUpdate}
        fields={globalConfigFields}
        defaultValue={config}
        lastResult={lastResult}
        timeZone={timeZone}
        className="card"
        submitLabel={t('global_config.save')}
        protect={canEdit}
        buttons={canEdit ? undefined : <></>}
      >
        <fieldset className="field-grid plain-fieldset" disabled={!canEdit}>
          <SpecFields fields={globalConfigFields} timeZone={timeZone} />
        </fieldset>
      </KitForm>
    </>
  )
}

export const ErrorBoundary = RouteError
