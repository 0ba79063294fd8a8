import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import type { PersonaChatMessage } from '#shared/schemas/persona-chat'
import { apiData, orErrorResponse, orNull } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { visitorLabel, whenLabel } from './__transcript'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.persona.transcript.detail' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'persona.transcript.detail')
  const personaId = params.personaId ?? ''
  const sessionId = params.sessionId ?? ''
  const p = user.permissions
  const [persona, transcript, dialogs] = await Promise.all([
    orErrorResponse(apiData(api.personai.persona[':id'].$get({ param: { id: personaId } }))),
    orErrorResponse(apiData(api.personai.persona[':personaId'].transcript[':sessionId'].$get({ param: { personaId, sessionId } }))),
    // The dialogs' names, when the reader may see them (else an answer names its dialog by id).
    p.persona_dialog_list || p.persona_dialog_get || p.persona_dialog_edit
      ? orNull(apiData(api.personai.persona[':personaId'].dialog.$get({ param: { personaId } })))
      : null,
  ])
  return {
    persona: { id: persona.id, name: persona.name },
    session: transcript.session,
    messages: transcript.messages,
    dialogs: Object.fromEntries((dialogs?.items ?? []).map((x) => [x.id, { name: x.name, type: x.type }])),
    canEditDialogs: Boolean(p.persona_dialog_edit),
    helperFilter: new URL(request.url).searchParams.get('helper') === '1',
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>

/**
 * One chat session's transcript: every message in order, each answer with where it came from — the dialog (linked
 * to its screen), or the knowledge passages it quotes and the engine that wrote it — and the visitor's call for a person.
 */
export default function TranscriptRoute() {
  const d = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const s = d.session
  const list = `/personai/persona/${encodeURIComponent(d.persona.id)}/transcript${d.helperFilter ? '?helper=1' : ''}`
  return (
    <>
      <PageHeader title={`${t('pages.persona.transcript.detail')}: ${d.persona.name}`} back={list} />
      <section className="card" aria-labelledby="transcript-session-title">
        <h2 id="transcript-session-title">{t('persona.transcript.session')}</h2>
        <dl className="facts">
          <dt>{t('persona.transcript.visitor')}</dt>
          <dd>{visitorLabel(t, s)}</dd>
          <dt>{t('persona.transcript.started_at')}</dt>
          <dd>{whenLabel(s.started_at, i18n.language, d.timeZone)}</dd>
          <dt>{t('persona.transcript.language')}</dt>
          <dd>{t(`persona.editor.language.${s.language}`, { defaultValue: s.language })}</dd>
          <dt>{t('persona.transcript.helper')}</dt>
          <dd>
            {s.helper_requested_at
              ? t('persona.transcript.helper_at', { at: whenLabel(s.helper_requested_at, i18n.language, d.timeZone) })
              : t('persona.transcript.helper_no')}
          </dd>
        </dl>
        {s.redacted_at ? <p className="hint">{t('persona.transcript.redacted_hint', { at: whenLabel(s.redacted_at, i18n.language, d.timeZone) })}</p> : null}
      </section>
      <section className="card" aria-labelledby="transcript-messages-title">
        <h2 id="transcript-messages-title">{t('persona.transcript.messages')}</h2>
        {d.messages.length === 0 ? (
          <p className="empty">{t('persona.transcript.no_messages')}</p>
        ) : (
          <ol className="transcript" aria-label={t('persona.transcript.messages')}>
            {d.messages.map((m) => (
              <TranscriptMessage key={m.seq} m={m} d={d} />
            ))}
          </ol>
        )}
      </section>
    </>
  )
}

function TranscriptMessage({ m, d }: { m: PersonaChatMessage; d: Data }) {
  const { t, i18n } = useTranslation()
  const who = m.role === 'visitor' ? t('persona.transcript.role.visitor') : d.persona.name
  const dialog = m.dialog_id ? d.dialogs[m.dialog_id] : undefined
  const dialogName = dialog ? dialog.name || t(`persona.dialog.type.${dialog.type}`) : m.dialog_id
  // The message's text already holds its text answers (the chat writes them in it): the rest are links and options.
  const answers = m.answers.filter((a) => !(a.type === 'text' && a.text && m.text.includes(a.text)))
  const dialogHref = `/personai/persona/${encodeURIComponent(d.persona.id)}/dialog/edit/${encodeURIComponent(m.dialog_id ?? '')}`
  return (
    <li className={`transcript-msg role-${m.role}`} data-kind={m.kind}>
      <p className="transcript-head">
        <strong>{who}</strong> <span className="badge">{t(`persona.transcript.kind.${m.kind}`)}</span>{' '}
        <time dateTime={new Date(m.at).toISOString()} className="hint">
          {whenLabel(m.at, i18n.language, d.timeZone)}
        </time>
      </p>
      {m.text ? (
        <p style={{ whiteSpace: 'pre-wrap' }}>{m.text}</p>
      ) : m.role === 'visitor' && d.session.redacted_at && m.kind !== 'helper' ? (
        <p className="hint">{t('persona.transcript.text_cleared')}</p>
      ) : null}
      {answers.length ? (
        <ul className="plain-list">
          {answers.map((a, i) => (
            <li key={i}>
              {a.type === 'text' ? (
                a.text
              ) : a.type === 'options' ? (
                t('persona.chat.options')
              ) : a.url ? (
                <a href={a.url}>{a.url}</a>
              ) : (
                t(`persona.dialog.answer_type.${a.type}`)
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {m.role === 'persona' ? (
        <div className="transcript-source">
          {m.dialog_id ? (
            <p className="hint" data-source="dialog">
              {t('persona.transcript.from_dialog')} {dialog && d.canEditDialogs ? <Link to={dialogHref}>{dialogName}</Link> : <span>{dialogName}</span>}
            </p>
          ) : null}
          {m.sources.length ? (
            <>
              <p className="hint" data-source="knowledge">
                {t('persona.transcript.from_knowledge', { count: m.sources.length })}
              </p>
              <ol className="citations" aria-label={t('persona.editor.chat.sources')}>
                {m.sources.map((src) => (
                  <li key={src.id}>
                    <cite>{src.title}</cite>: “{src.quote}”
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {m.engine ? <p className="hint">{t('persona.editor.chat.engine', { engine: m.engine })}</p> : null}
          {!m.dialog_id && !m.sources.length && m.kind !== 'greeting' ? <p className="hint">{t('persona.transcript.from_message')}</p> : null}
        </div>
      ) : null}
    </li>
  )
}

export const ErrorBoundary = RouteError
