import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useClock } from '~/components/ui/clock'
import { formatTime } from '~/lib/format'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { CheckboxInput, KitForm, NumberInput, TextArea, TextInput } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { ContentKey, ContentPut, SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import { apiData, orErrorResponse, orNull } from '~/server/api.server'
import { apiAction, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.ledger.content.edit' }

/** The form's rules: the API's PUT body, with name and points required (a new price needs both). */
const ContentForm = v.required(ContentPut, ['name', 'points'])
/** Unchecked switches are absent from the form data: false. */
const prepare = (values: Record<string, unknown>) => ({ ...values, is_system: values.is_system === true, should_propagate: values.should_propagate === true })

function keyOf(params: { contentId?: string }): string {
  const key = v.safeParse(ContentKey, params.contentId ?? '')
  if (!key.success) throw new Response(null, { status: 404 })
  return key.output
}

/** The price of the key, or an empty one to create (PUT creates a missing price). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'ledger.content.edit')
  const key = keyOf(params)
  const system = (SYSTEM_CONTENT_KEYS as readonly string[]).includes(key)
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  // No price yet (404): the form creates it; any other refusal is the route's error.
  const content = await orErrorResponse(orNull(apiData(api.ledger.content[':id'].$get({ param: { id: key } }))))
  return { key, content, system, timeZone }
}

export function action({ request, context, params }: ActionFunctionArgs) {
  const key = keyOf(params)
  return apiAction(request, context, {
    route: 'ledger.content.edit',
    schema: ContentForm,
    prepare,
    call: (api, body) => apiData(api.ledger.content[':key'].$put({ param: { key }, json: body })),
    redirect: '/ledger/content',
    flash: () => ({ kind: 'success', message: 'resources.ledger_content.saved', values: { key } }),
  })
}

export default function ContentEditRoute() {
  const { key, content, system, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  const f = (name: string) => t(`resources.ledger_content.fields.${name}`)
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t(content ? 'pages.ledger.content.edit' : 'resources.ledger_content.create')}: <code>{key}</code>
          </h1>
          {content ? <p className="hint">{t('ledger.updated', { by: content.updated_by || '—', at: formatTime(content.updated_at, clock) })}</p> : null}
        </div>
      </div>
      <KitForm
        schema={ContentForm}
        prepare={prepare}
        lastResult={useActionData()}
        timeZone={timeZone}
        protect
        defaultValue={{
          name: content?.name ?? (system ? t(`ledger.content_key.${key}`) : ''),
          description: content?.description ?? '',
          points: content ? String(content.points) : '',
          is_system: content?.is_system ?? system,
        }}
        labels={{ name: f('name'), description: f('description'), points: f('points') }}
        submitLabel={t('ledger.save')}
        className="card ledger-form"
        actions={
          <Link to="/ledger/content" className="btn">
            {t('ledger.cancel')}
          </Link>
        }
      >
        <TextInput name="name" label={f('name')} maxLength={120} required />
        <TextArea name="description" label={f('description')} rows={2} />
        <NumberInput name="points" label={f('points')} hint={t('resources.ledger_content.points_hint')} decimal={false} required />
        <div className="ledger-switches">
          <CheckboxInput name="is_system" label={f('is_system')} hint={t('resources.ledger_content.fields.is_system.info')} />
          <CheckboxInput name="should_propagate" label={t('resources.ledger_content.propagate')} />
        </div>
      </KitForm>
    </>
  )
}

export const ErrorBoundary = RouteError
