import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { data } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { KnowledgeLessonInput, KnowledgeUrlInput, PersonaAsk, PersonaTerms } from '#shared/schemas/persona'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse, orNull } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction, apiResult } from '~/server/api-action.server'
import { requireAccess, requireRoute } from '~/server/auth.server'
import { personaSchema, preparePersona } from './__persona'
import { PersonaForm } from './__persona-form'
import { AnimationsPanel, ChatTest, DialogsPanel, KnowledgePanel, SavePanel, TermsPanel, TranscriptsPanel, prepareTerms } from './__persona-panels'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.persona.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'persona.edit')
  const personaId = params.personaId ?? ''
  const param = { personaId }
  const p = user.permissions
  const [persona, knowledge, dialogs, stages, status, waiting] = await Promise.all([
    orErrorResponse(apiData(api.personai.persona[':id'].$get({ param: { id: personaId } }))),
    orNull(apiData(api.personai.persona[':personaId'].knowledge.$get({ param }))),
    p.persona_dialog_list || p.persona_dialog_get || p.persona_dialog_edit ? orNull(apiData(api.personai.persona[':personaId'].dialog.$get({ param }))) : null,
    orNull(apiData(api.personai.persona[':personaId'].stages.$get({ param }))),
    orNull(apiData(api.ai.status.$get()), [403, 404]),
    // The public chat's sessions whose visitor asked for a person (the transcripts step counts them, up to a page).
    orNull(apiData(api.personai.persona[':personaId'].transcript.$get({ param, query: { helper: '1' } }))),
  ])
  return {
    persona,
    knowledge,
    dialogs: dialogs ? { total: dialogs.total, problems: dialogs.problems } : null,
    stages,
    prices: status?.prices ?? null,
    animationReady: Boolean(status?.animation.did),
    voiceCloneReady: Boolean(status?.voice_clone.elevenlabs),
    canDialogs: Boolean(p.persona_dialog_list),
    helperWaiting: waiting ? { count: waiting.items.length, more: waiting.next_cursor !== null } : null,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

const EDIT = { all: ['persona_persona_edit'], flags: ['persona_enabled' as const] }
const READ = { any: ['persona_persona_get', 'persona_persona_edit'], flags: ['persona_enabled' as const] }

/** The intents of the editor's panels (`?intent=`), each one API call. */
export const PERSONA_INTENTS = [
  'terms',
  'save_items',
  'knowledge_upload',
  'knowledge_url',
  'knowledge_lesson',
  'knowledge_delete',
  'knowledge_retry',
  'ask',
] as const
type Intent = (typeof PERSONA_INTENTS)[number]

const idOf = (form: FormData) => {
  const id = String(form.get('id') ?? '')
  return /^[A-Za-z0-9_-]{1,40}$/.test(id) ? id : null
}
const badId = (id: string) =>
  data({ ok: false as const, errors: [{ field: 'id', cause: 'invalid', value: id, message: 'validation.id' }] as ErrorItem[] }, { status: 400 })

/** Saves the persona's identification, voice and messages; or (intent in the URL) one panel's call. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const personaId = params.personaId ?? ''
  const param = { personaId }
  const intent = new URL(request.url).searchParams.get('intent') as Intent | null
  // A panel's form stays on the page (a fetcher): the reply keeps it; the panel clears it by remounting.
  const reply = { onSuccess: (_: unknown, submission: { reply: () => unknown }) => submission.reply() }
  switch (intent) {
    case 'terms':
      return apiAction(request, context, {
        access: EDIT,
        schema: PersonaTerms,
        prepare: prepareTerms,
        call: (api, json) => apiData(api.personai.persona[':personaId'].terms.$post({ param, json })),
        ...reply,
      })
    case 'knowledge_url':
      return apiAction(request, context, {
        access: EDIT,
        schema: KnowledgeUrlInput,
        call: (api, json) => apiData(api.personai.persona[':personaId'].knowledge.url.$post({ param, json })),
        ...reply,
      })
    case 'knowledge_lesson':
      return apiAction(request, context, {
        access: EDIT,
        schema: KnowledgeLessonInput,
        call: (api, json) => apiData(api.personai.persona[':personaId'].knowledge.lesson.$post({ param, json })),
        onSuccess: (answer, submission) => ({ ...submission.reply(), warnings: answer.warnings }),
      })
    case 'ask':
      return apiAction(request, context, {
        access: READ,
        schema: PersonaAsk,
        call: (api, json) => apiData(api.personai.persona[':personaId'].ask.$post({ param, json })),
        onSuccess: (answer, submission) => ({ ...submission.reply(), answer, question: String(submission.payload.question ?? '') }),
      })
    case 'save_items': {
      const { api } = await requireAccess(request, context, EDIT)
      return apiResult(async () => ({
        ok: true as const,
        saved: await apiData(api.personai.persona[':personaId'].save.$post({ param })),
        errors: [] as ErrorItem[],
      }))
    }
    case 'knowledge_upload': {
      const { api } = await requireAccess(request, context, EDIT)
      const type = request.headers.get('content-type') ?? ''
      if (!request.body || !type.startsWith('multipart/form-data')) return badId('')
      // The multipart body goes to the API as it came (the API checks every file: type, magic bytes, size, limit).
      return apiResult(async () => {
        const result = await apiData(
          api.personai.persona[':personaId'].knowledge.$post({ param }, { init: { body: request.body, headers: { 'content-type': type } } }),
        )
        return { ok: true as const, ...result, errors: [] as ErrorItem[] }
      })
    }
    case 'knowledge_delete':
    case 'knowledge_retry': {
      const { api } = await requireAccess(request, context, EDIT)
      const form = await request.formData()
      const itemId = idOf(form)
      if (!itemId) return badId(String(form.get('id') ?? ''))
      const p = { personaId, itemId }
      return apiResult(async () => {
        if (intent === 'knowledge_delete') await apiData(api.personai.persona[':personaId'].knowledge[':itemId'].$delete({ param: p }))
        else await apiData(api.personai.persona[':personaId'].knowledge[':itemId'].process.$post({ param: p }))
        return { ok: true as const, errors: [] as ErrorItem[] }
      })
    }
    default:
      return apiAction(request, context, {
        route: 'persona.edit',
        schema: personaSchema,
        prepare: preparePersona,
        call: (api, json) => apiData(api.personai.persona[':id'].$put({ param: { id: personaId }, json })),
        redirect: `/personai/persona/edit/${personaId}`,
        flash: (saved) => ({ kind: 'success', message: 'persona.editor.saved', values: { name: saved.name } }),
      })
  }
}

/** The persona editor (seed 002 §2): every step of the seed on one screen, linked from its top. */
export default function PersonaEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const p = d.persona
  const steps = ['identification', 'voice', 'animations', 'knowledge', 'dialogs', 'assistant', 'chat', 'terms', 'transcripts'] as const
  return (
    <>
      <PageHeader title={`${t('pages.persona.edit')}: ${p.name}`} back="/personai/persona" />
      <nav className="link-tabs" aria-label={t('persona.editor.steps')}>
        {steps.map((s) => (
          <a key={s} href={`#persona-${s}`} className="link-tab">
            {t(`persona.editor.step.${s}`)}
          </a>
        ))}
      </nav>
      <PersonaForm key={`${p.id}:${p.updated_at}`} persona={p} lastResult={lastResult} timeZone={d.timeZone} voiceCloneReady={d.voiceCloneReady} />
      <AnimationsPanel persona={p} ready={d.animationReady} price={d.prices?.animation ?? null} />
      {d.knowledge ? <KnowledgePanel knowledge={d.knowledge} /> : null}
      <DialogsPanel personaId={p.id} summary={d.dialogs} canList={d.canDialogs} />
      <section className="card" id="persona-assistant" aria-labelledby="persona-assistant-title">
        <h2 id="persona-assistant-title">{t('persona.editor.step.assistant')}</h2>
        <p className="hint">{t('persona.editor.assistant_hint')}</p>
        <Link to={`/personai/assistant/create?persona=${encodeURIComponent(p.id)}`} className="btn">
          {t('pages.assistant.create')}
        </Link>
      </section>
      {d.stages ? <SavePanel stages={d.stages} /> : null}
      <ChatTest personaId={p.id} termsAccepted={Boolean(p.terms_accepted_at)} />
      <TermsPanel accepted={Boolean(p.terms_accepted_at)} acceptedAt={p.terms_accepted_at} acceptedBy={p.terms_accepted_by} timeZone={d.timeZone} />
      <TranscriptsPanel personaId={p.id} waiting={d.helperWaiting} />
    </>
  )
}

export const ErrorBoundary = RouteError
