import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SpecFields } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { useClock } from '~/components/ui/clock'
import type { FieldSpec } from '~/lib/form-fields'
import { formatTime } from '~/lib/format'
import { AI_SECRET_FIELDS, AiSettingsUpdate, TEXT_PROVIDERS, VISION_PROVIDERS, type AiSettingsView } from '#shared/schemas/ai'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.realm.ai' }

const field = (name: keyof AiSettingsView, kind: FieldSpec['kind'], more: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  kind,
  label: `ai.settings.fields.${name}`,
  ...more,
})

/**
 * The realm's AI settings (docs ai.md): the text provider, the vision provider of the persona image check, the
 * monthly cap and the providers' secrets. Secrets are
 * shown masked; the mask (or an empty field) saved back leaves a secret as it was.
 */
const aiFields: FieldSpec[] = [
  field('text_provider', 'select', {
    options: TEXT_PROVIDERS.map((p) => ({ value: p, label: `ai.settings.provider.${p}` })),
    hint: 'ai.settings.hints.text_provider',
    required: true,
  }),
  field('monthly_credit_cap', 'number', { hint: 'ai.settings.hints.monthly_credit_cap', min: -1, step: '1', required: true }),
  field('vision_provider', 'select', {
    options: VISION_PROVIDERS.map((p) => ({ value: p, label: `ai.settings.vision.${p}` })),
    hint: 'ai.settings.hints.vision_provider',
  }),
  field('vision_model', 'text', { hint: 'ai.settings.hints.vision_model' }),
  field('minimax_group_id', 'text'),
  field('languagetool_url', 'text', { hint: 'ai.settings.hints.languagetool_url' }),
  field('languagetool_username', 'text'),
  field('essay_check_limit', 'number', { hint: 'ai.settings.hints.essay_check_limit', min: 0, max: 100, step: '1' }),
  ...AI_SECRET_FIELDS.map((name) => field(name, 'text', { hint: 'ai.settings.hints.secret' })),
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'realm.ai')
  const [settings, status] = await Promise.all([orErrorResponse(apiData(api.ai.settings.$get())), orErrorResponse(apiData(api.ai.status.$get()))])
  return { settings, status, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE, canEdit: user.permissions.mas_realm_edit === true }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    access: { all: ['mas_realm_edit'] },
    schema: AiSettingsUpdate,
    fields: aiFields,
    call: (api, body) => apiData(api.ai.settings.$put({ json: body })),
    flash: 'ai.settings.saved',
  })

export default function AiSettingsRoute() {
  const { settings, status, timeZone, canEdit } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const clock = useClock()
  const yes = (on: boolean, missing = 'ai.settings.status.missing') => t(on ? 'ai.settings.status.configured' : missing)
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.realm.ai')}</h1>
          <p className="hint">
            {settings.updated_by
              ? t('resources.role.updated', { by: settings.updated_by, at: formatTime(settings.updated_at, clock) })
              : t('ai.settings.never_saved')}
          </p>
        </div>
      </div>
      <section className="card" aria-labelledby="ai-status">
        <h2 id="ai-status">{t('ai.settings.status.title')}</h2>
        <dl className="facts">
          <dt>{t('ai.settings.status.engine')}</dt>
          <dd>
            {t(`ai.settings.provider.${status.text_engine}`)}
            {status.text_problem ? <span className="badge badge-warning"> {t(`ai.settings.problem.${status.text_problem}`)}</span> : null}
            {status.text_engine === 'local' ? <span className="hint"> — {t('ai.engine.local')}</span> : null}
          </dd>
          <dt>{t('ai.settings.status.usage')}</dt>
          <dd>
            {status.cap < 0
              ? t('ai.settings.status.usage_uncapped', { used: status.used, month: status.month })
              : t('ai.settings.status.usage_capped', { used: status.used, cap: status.cap, month: status.month })}
          </dd>
          <dt>{t('ai.settings.status.speech')}</dt>
          <dd>
            MiniMax: {yes(status.speech.minimax)} · Google: {yes(status.speech.google)} · ElevenLabs: {yes(status.speech.elevenlabs)}
          </dd>
          <dt>{t('ai.settings.status.vision')}</dt>
          <dd>
            {t(`ai.settings.vision.${status.vision.engine}`)}
            {status.vision.model ? ` — ${status.vision.model}` : null}
            {status.vision.problem ? <span className="badge badge-warning"> {t(`ai.settings.problem.ai_${status.vision.problem}`)}</span> : null}
          </dd>
          <dt>{t('ai.settings.status.media')}</dt>
          <dd>
            D-ID: {yes(status.animation.did, 'ai.settings.status.missing_animation')} · {t('ai.settings.status.voice_clone')}:{' '}
            {yes(status.voice_clone.elevenlabs, 'ai.settings.status.missing_clone')}
          </dd>
        </dl>
      </section>
      {canEdit ? null : <p className="alert alert-info">{t('ai.settings.read_only')}</p>}
      <KitForm
        key={settings.updated_at ?? 'new'}
        schema={AiSettingsUpdate}
        fields={aiFields}
        defaultValue={settings}
        lastResult={lastResult}
        timeZone={timeZone}
        className="card"
        submitLabel={t('ai.settings.save')}
        protect={canEdit}
        buttons={canEdit ? undefined : <></>}
      >
        <fieldset className="field-grid plain-fieldset" disabled={!canEdit}>
          <SpecFields fields={aiFields} timeZone={timeZone} />
        </fieldset>
      </KitForm>
    </>
  )
}

export const ErrorBoundary = RouteError
