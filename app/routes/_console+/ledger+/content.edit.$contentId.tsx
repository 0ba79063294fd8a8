import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { ContentKey, ContentPut, SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import type { LedgerContent } from '#shared/schemas/ledger-entity'
import { RealmApiError } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { attempt, invalid, issuesAsErrors, numberField, redirectWithFlash, type ActionResult } from './__ledger.server'
import { described, ErrorAlert, Field, useLiveValidation } from './__ledger-ui'

export const handle = { title: 'pages.ledger.content.edit' }

/** The form's rules: the API's PUT body, with name and points required (a new price needs both). */
const ContentForm = v.required(ContentPut, ['name', 'points'])

function keyOf(params: { contentId?: string }): string {
  const key = v.safeParse(ContentKey, params.contentId ?? '')
  if (!key.success) throw new Response(null, { status: 404 })
  return key.output
}

/** The price of the key, or an empty one to create (PUT creates a missing price). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.content.edit')
  const key = keyOf(params)
  try {
    return {
      key,
      content: await api.get<LedgerContent>(`ledger/content/${encodeURIComponent(key)}`),
      system: (SYSTEM_CONTENT_KEYS as readonly string[]).includes(key),
    }
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 404) return { key, content: null, system: (SYSTEM_CONTENT_KEYS as readonly string[]).includes(key) }
    if (err instanceof RealmApiError) throw Response.json({ errors: err.errors }, { status: err.status })
    throw err
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.content.edit')
  const key = keyOf(params)
  const form = await request.formData()
  const parsed = v.safeParse(ContentForm, {
    name: String(form.get('name') ?? ''),
    description: String(form.get('description') ?? ''),
    points: numberField(form.get('points')),
    is_system: form.get('is_system') === 'on',
    should_propagate: form.get('should_propagate') === 'on',
  })
  if (!parsed.success) return invalid(issuesAsErrors(parsed.issues))
  const saved = await attempt(() => api.put<LedgerContent>(`ledger/content/${encodeURIComponent(key)}`, parsed.output))
  if (!saved.ok) return saved.response
  return redirectWithFlash('/ledger/content', { kind: 'success', message: 'resources.ledger_content.saved', values: { key } })
}

export default function ContentEditRoute() {
  const { key, content, system } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  const action = useActionData<ActionResult>()
  const saving = useNavigation().state === 'submitting'
  const [values, setValues] = useState({
    name: content?.name ?? (system ? t(`ledger.content_key.${key}`) : ''),
    description: content?.description ?? '',
    points: content ? String(content.points) : '',
    is_system: content?.is_system ?? system,
    should_propagate: false,
  })
  const live = useLiveValidation(ContentForm, { ...values, points: values.points === '' ? undefined : Number(values.points) })
  const server = Object.fromEntries((action?.errors ?? []).map((e) => [e.field, e.message]))
  const error = (f: string) => live.errors[f] ?? server[f]
  const set = <K extends keyof typeof values>(k: K, value: (typeof values)[K]) => {
    setValues((s) => ({ ...s, [k]: value }))
    live.touch(k)
  }
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
      <Form method="post" className="ledger-form" noValidate onSubmit={(e) => !live.attempt() && e.preventDefault()}>
        <ErrorAlert errors={action?.errors} title="resources.ledger_content.save_failed" />
        <div className="card">
          <Field id="content-name" label={t('resources.ledger_content.fields.name')} error={error('name')}>
            <input
              className="input"
              name="name"
              value={values.name}
              maxLength={120}
              required
              onChange={(e) => set('name', e.currentTarget.value)}
              {...described('content-name', error('name'))}
            />
          </Field>
          <Field id="content-description" label={t('resources.ledger_content.fields.description')} error={error('description')}>
            <textarea
              className="input"
              name="description"
              rows={2}
              maxLength={500}
              value={values.description}
              onChange={(e) => set('description', e.currentTarget.value)}
              {...described('content-description', error('description'))}
            />
          </Field>
          <Field
            id="content-points"
            label={t('resources.ledger_content.fields.points')}
            error={error('points')}
            hint={t('resources.ledger_content.points_hint')}
          >
            <input
              className="input"
              name="points"
              inputMode="numeric"
              value={values.points}
              required
              onChange={(e) => set('points', e.currentTarget.value.replace(/\D+/g, ''))}
              {...described('content-points', error('points'), true)}
            />
          </Field>
          <div className="ledger-switches">
            <label className="switch">
              <input
                type="checkbox"
                name="is_system"
                checked={values.is_system}
                onChange={(e) => set('is_system', e.currentTarget.checked)}
                aria-describedby="content-system-hint"
              />{' '}
              {t('resources.ledger_content.fields.is_system')}
            </label>
            <p className="hint" id="content-system-hint">
              {t('resources.ledger_content.fields.is_system.info')}
            </p>
            <label className="switch">
              <input
                type="checkbox"
                name="should_propagate"
                checked={values.should_propagate}
                onChange={(e) => set('should_propagate', e.currentTarget.checked)}
              />{' '}
              {t('resources.ledger_content.propagate')}
            </label>
          </div>
        </div>
        <div className="form-actions">
          <Link to="/ledger/content" className="btn">
            {t('ledger.cancel')}
          </Link>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('ledger.save')}
          </button>
        </div>
      </Form>
    </>
  )
}

export const ErrorBoundary = RouteError
