import { Link, useFetcher, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type * as v from 'valibot'
import { CheckboxInput, KitForm, TextInput } from '~/components/form/kit'
import { DataTable } from '~/components/ui/data-table'
import { Icon, type IconName } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText } from '~/lib/error-text'
import { ANIMATION_KINDS } from '#shared/schemas/ai'
import type { ErrorItem } from '#shared/schemas/error'
import { PersonaAnimations } from '~/components/persona-media/animation-generator'
import {
  KNOWLEDGE_FILE_TYPES,
  KNOWLEDGE_MAX,
  KnowledgeLessonInput,
  KnowledgeUrlInput,
  PersonaAsk,
  PersonaTerms,
  type ItemStage,
  type KnowledgeItem,
  type Persona,
} from '#shared/schemas/persona'

/** How often the knowledge list is read again while an item is being processed. */
export const KNOWLEDGE_POLL_MS = 2000

/** A panel form's last answer when it was refused (a remounted form starts empty after a success). */
const refused = (d: unknown) => (d && typeof d === 'object' && (d as { status?: string }).status === 'error' ? d : undefined)

/**
 * A one-line panel form posting `?intent=<intent>` with its fetcher (the editor stays); it shows only a refusal: the
 * caller remounts it (`key`) after a success, so it starts empty again.
 */
function PanelForm({
  intent,
  fetcher,
  ...form
}: {
  id: string
  schema: v.GenericSchema
  intent: string
  fetcher: { data: unknown }
  submitLabel: string
  submitIcon: IconName
  labels: Record<string, string>
  children: ReactNode
}) {
  return <KitForm {...form} action={`?intent=${intent}`} fetcher={fetcher as never} lastResult={refused(fetcher.data)} timeZone="UTC" className="inline-form" />
}

type Outcome = { ok: boolean; errors?: ErrorItem[]; warnings?: ErrorItem[] }

/** Toasts a panel call's refusal (or its warnings) once its answer arrives. */
function useOutcome(fetcher: { state: string; data: unknown }, onOk?: () => void) {
  const { t } = useTranslation()
  const toast = useToast()
  const seen = useRef<unknown>(null)
  const ok = useRef(onOk)
  ok.current = onOk
  useEffect(() => {
    const d = fetcher.data as Outcome | undefined
    if (fetcher.state !== 'idle' || !d || seen.current === d) return
    seen.current = d
    if (d.errors?.length) toast.push({ kind: 'error', message: d.errors.map((e) => errorText(t, e)).join(' ') })
    else if (d.warnings?.length) toast.push({ kind: 'warning', message: d.warnings.map((e) => `${errorText(t, e)} (${String(e.value)})`).join(' ') })
    if (d.ok) ok.current?.()
  }, [fetcher.state, fetcher.data, toast, t])
}

/**
 * Animations (seed 002 §3: idle, talk, enter, leave, video application; provider did by default). Locally the console
 * animates the persona's image in the browser; the paid provider's animations need its key in the realm, and each
 * generation is confirmed with its credit price.
 */
export function AnimationsPanel({ persona, ready, price }: { persona: Persona; ready: boolean; price: number | null }) {
  const { t } = useTranslation()
  return (
    <section className="card" id="persona-animations" aria-labelledby="persona-animations-title">
      <h2 id="persona-animations-title">{t('persona.editor.step.animations')}</h2>
      <p className="hint">{t(`persona.editor.speech_hint.${persona.speech_type}`)}</p>
      <ul className="plain-list">
        {ANIMATION_KINDS.map((k) => (
          <li key={k}>
            <strong>{t(`persona.editor.animation.${k}`)}</strong>: {t('persona.editor.animation.browser')}
          </li>
        ))}
      </ul>
      <p className="hint" role="note">
        {ready
          ? price === null
            ? t('persona.editor.animation.unpriced')
            : t('persona.editor.animation.price', { price })
          : t('persona.editor.animation.needs_provider')}
      </p>
      <PersonaAnimations personaId={persona.id} />
    </section>
  )
}

const stageLabel = (stage: ItemStage) => `persona.stage.${stage}`

/**
 * The knowledge panel (seed 002 §4, §5): upload PDF, TXT or PPTX, add URLs; each item with its stage (draft,
 * to_update, to_delete until the save) and processing status (pending → processed or failed, with the reason),
 * read again while any is pending; a pending item cannot be removed.
 */
export function KnowledgePanel({ knowledge }: { knowledge: { items: KnowledgeItem[]; counted: number; max: number } }) {
  const { t } = useTranslation()
  const upload = useFetcher<Outcome>()
  const url = useFetcher()
  const lesson = useFetcher<Outcome>()
  const row = useFetcher<Outcome>()
  const revalidator = useRevalidator()
  const fileInput = useRef<HTMLInputElement>(null)
  useOutcome(upload, () => {
    if (fileInput.current) fileInput.current.value = ''
  })
  useOutcome(row)
  useOutcome(lesson)
  const pending = knowledge.items.some((i) => i.status === 'pending')
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, KNOWLEDGE_POLL_MS)
    return () => clearInterval(timer)
  }, [pending, revalidator])
  const full = knowledge.counted >= knowledge.max
  return (
    <section className="card" id="persona-knowledge" aria-labelledby="persona-knowledge-title">
      <h2 id="persona-knowledge-title">{t('persona.editor.step.knowledge')}</h2>
      <p className="hint">{t('persona.editor.knowledge.limit', { counted: knowledge.counted, max: KNOWLEDGE_MAX })}</p>
      <upload.Form method="post" action="?intent=knowledge_upload" encType="multipart/form-data" className="inline-form">
        <div className="field">
          <label htmlFor="knowledge-files">{t('persona.editor.knowledge.files')}</label>
          <input
            ref={fileInput}
            id="knowledge-files"
            name="files"
            type="file"
            multiple
            className="input"
            accept={KNOWLEDGE_FILE_TYPES.map((x) => `.${x}`).join(',')}
            disabled={full}
            aria-describedby="knowledge-files-hint"
          />
          <p className="hint" id="knowledge-files-hint">
            {t('persona.editor.knowledge.files_hint')}
          </p>
        </div>
        <button type="submit" className="btn" disabled={full || upload.state !== 'idle'}>
          <Icon name="upload" /> {t('persona.editor.knowledge.upload')}
        </button>
      </upload.Form>
      <PanelForm
        key={knowledge.items.length}
        id="knowledge-url-form"
        schema={KnowledgeUrlInput}
        intent="knowledge_url"
        fetcher={url}
        submitLabel={t('persona.editor.knowledge.add_url')}
        submitIcon="link"
        labels={{ url: t('persona.editor.knowledge.url') }}
      >
        <TextInput name="url" type="url" label={t('persona.editor.knowledge.url')} hint={t('persona.editor.knowledge.url_hint')} />
      </PanelForm>
      <PanelForm
        key={`lesson-${knowledge.items.length}`}
        id="knowledge-lesson-form"
        schema={KnowledgeLessonInput}
        intent="knowledge_lesson"
        fetcher={lesson}
        submitLabel={t('persona.editor.knowledge.add_lesson')}
        submitIcon="lesson"
        labels={{ lesson_id: t('persona.editor.knowledge.lesson_id'), title: t('persona.editor.knowledge.lesson_title') }}
      >
        <div className="field-grid">
          <TextInput name="lesson_id" label={t('persona.editor.knowledge.lesson_id')} hint={t('persona.editor.knowledge.lesson_hint')} />
          <TextInput name="title" label={t('persona.editor.knowledge.lesson_title')} />
        </div>
      </PanelForm>
      <DataTable
        rows={knowledge.items}
        empty={t('persona.editor.knowledge.empty')}
        label={t('persona.editor.step.knowledge')}
        columns={['title', 'type', 'status', 'stage', 'actions'].map((c) => t(`persona.editor.knowledge.${c}`))}
      >
        {(item) => (
          <tr key={item.id} data-status={item.status}>
            <td>{item.title}</td>
            <td>{item.type.toUpperCase()}</td>
            <td>
              <span className={`badge badge-${item.status}`}>{t(`persona.knowledge.status.${item.status}`)}</span>
              {item.status === 'processed' && item.type !== 'lesson' ? ` (${t('persona.editor.knowledge.chunks', { count: item.chunk_count })})` : null}
              {item.status === 'failed' && item.reason ? (
                <span className="error"> {t(`persona.knowledge.reason.${item.reason}`, { defaultValue: item.reason })}</span>
              ) : null}
            </td>
            <td>{t(stageLabel(item.stage))}</td>
            <td>
              {item.status === 'failed' ? (
                <row.Form method="post" action="?intent=knowledge_retry" className="inline">
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" className="btn btn-small">
                    <Icon name="refresh" /> {t('persona.editor.knowledge.retry')}
                  </button>
                </row.Form>
              ) : null}
              {item.stage !== 'to_delete' ? (
                <row.Form method="post" action="?intent=knowledge_delete" className="inline">
                  <input type="hidden" name="id" value={item.id} />
                  <button
                    type="submit"
                    className="btn btn-small"
                    disabled={item.status === 'pending'}
                    title={item.status === 'pending' ? t('validation.persona.knowledge_pending') : undefined}
                    aria-label={t('persona.editor.knowledge.remove', { title: item.title })}
                  >
                    <Icon name="trash" /> {t('persona.editor.knowledge.remove_short')}
                  </button>
                </row.Form>
              ) : null}
            </td>
          </tr>
        )}
      </DataTable>
      {pending ? (
        <p className="hint" aria-live="polite">
          {t('persona.editor.knowledge.processing')}
        </p>
      ) : null}
    </section>
  )
}

/** The dialogs step: how many, the problems the list shows, and the way to the dialog screens. */
export function DialogsPanel({ personaId, summary, canList }: { personaId: string; summary: { total: number; problems: number } | null; canList: boolean }) {
  const { t } = useTranslation()
  return (
    <section className="card" id="persona-dialogs" aria-labelledby="persona-dialogs-title">
      <h2 id="persona-dialogs-title">{t('persona.editor.step.dialogs')}</h2>
      {summary ? (
        <p>
          {t('persona.editor.dialogs.count', { count: summary.total })}
          {summary.problems ? <span className="error"> {t('persona.editor.dialogs.problems', { count: summary.problems })}</span> : null}
        </p>
      ) : null}
      {canList ? (
        <Link to={`/personai/persona/${encodeURIComponent(personaId)}/dialog`} className="btn">
          {t('persona.editor.dialogs.open')}
        </Link>
      ) : null}
    </section>
  )
}

/** The public chat's transcripts (issue 16): how many sessions wait for a person, and the links to the list. */
export function TranscriptsPanel({ personaId, waiting }: { personaId: string; waiting: { count: number; more: boolean } | null }) {
  const { t } = useTranslation()
  const base = `/personai/persona/${encodeURIComponent(personaId)}/transcript`
  return (
    <section className="card" id="persona-transcripts" aria-labelledby="persona-transcripts-title">
      <h2 id="persona-transcripts-title">{t('persona.editor.step.transcripts')}</h2>
      <p className="hint">{t('persona.transcript.hint')}</p>
      {waiting ? (
        <p>{waiting.more ? t('persona.transcript.waiting_more', { count: waiting.count }) : t('persona.transcript.waiting', { count: waiting.count })}</p>
      ) : null}
      <Link to={base} className="btn">
        {t('persona.transcript.open_list')}
      </Link>{' '}
      {waiting?.count ? (
        <Link to={`${base}?helper=1`} className="btn">
          {t('persona.transcript.helper_only')}
        </Link>
      ) : null}
    </section>
  )
}

/** What the persona's save will apply (seed 002 §4: drafts added, changes applied, items to delete removed). */
export function SavePanel({ stages }: { stages: Record<ItemStage, number> }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<Outcome>()
  useOutcome(fetcher)
  const waiting = stages.draft + stages.to_update + stages.to_delete
  return (
    <section className="card" id="persona-save" aria-labelledby="persona-save-title">
      <h2 id="persona-save-title">{t('persona.editor.save_items.title')}</h2>
      <p>
        {waiting
          ? t('persona.editor.save_items.waiting', { draft: stages.draft, to_update: stages.to_update, to_delete: stages.to_delete })
          : t('persona.editor.save_items.none')}
      </p>
      <fetcher.Form method="post" action="?intent=save_items">
        <button type="submit" className="btn btn-primary" disabled={!waiting || fetcher.state !== 'idle'}>
          <Icon name="check" /> {t('persona.editor.save_items.apply')}
        </button>
      </fetcher.Form>
    </section>
  )
}

type AskData = { answer?: AskAnswer; question?: string; status?: string }
type AskAnswer =
  | { source: 'dialog'; dialog_id: string; question: string; answers: { type: string; text: string; url: string }[] }
  | { source: 'knowledge'; text: string; sources: { id: string; title: string; quote: string }[]; engine: string }
  | { source: 'unknown'; text: string }

/** The chat test (seed 002 §2): a question to the persona as the chat will answer it, with the answer's sources. */
export function ChatTest({ personaId, termsAccepted }: { personaId: string; termsAccepted: boolean }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<AskData>()
  const [log, setLog] = useState<{ question: string; answer: AskAnswer }[]>([])
  const last = useRef<unknown>(null)
  useEffect(() => {
    const d = fetcher.data
    if (fetcher.state !== 'idle' || !d?.answer || last.current === d) return
    last.current = d
    setLog((l) => [...l, { question: d.question ?? '', answer: d.answer! }])
  }, [fetcher.state, fetcher.data])
  return (
    <section className="card" id="persona-chat" aria-labelledby="persona-chat-title" data-persona={personaId}>
      <h2 id="persona-chat-title">{t('persona.editor.step.chat')}</h2>
      {!termsAccepted ? <p className="hint">{t('persona.editor.chat.terms_first')}</p> : null}
      <ol className="chat-log" aria-live="polite" aria-label={t('persona.editor.chat.log')}>
        {log.map((m, i) => (
          <li key={i}>
            <p>
              <strong>{t('persona.editor.chat.you')}:</strong> {m.question}
            </p>
            <ChatAnswer answer={m.answer} />
          </li>
        ))}
      </ol>
      <PanelForm
        key={log.length}
        id="persona-ask-form"
        schema={PersonaAsk}
        intent="ask"
        fetcher={fetcher}
        submitLabel={t('persona.editor.chat.send')}
        submitIcon="send"
        labels={{ question: t('persona.editor.chat.question') }}
      >
        <TextInput name="question" label={t('persona.editor.chat.question')} disabled={!termsAccepted} />
      </PanelForm>
    </section>
  )
}

function ChatAnswer({ answer }: { answer: AskAnswer }) {
  const { t } = useTranslation()
  if (answer.source === 'dialog')
    return (
      <div className="chat-answer" data-source="dialog">
        <p className="hint">{t('persona.editor.chat.from_dialog', { question: answer.question })}</p>
        {answer.answers.map((a, i) => (
          <p key={i}>{a.type === 'text' ? a.text : a.url ? <a href={a.url}>{a.url}</a> : t(`persona.dialog.answer_type.${a.type}`)}</p>
        ))}
      </div>
    )
  if (answer.source === 'knowledge')
    return (
      <div className="chat-answer" data-source="knowledge">
        <p style={{ whiteSpace: 'pre-wrap' }}>{answer.text}</p>
        <p className="hint">{t('persona.editor.chat.engine', { engine: answer.engine })}</p>
        <ol className="citations" aria-label={t('persona.editor.chat.sources')}>
          {answer.sources.map((s) => (
            <li key={s.id}>
              <cite>{s.title}</cite>: “{s.quote}”
            </li>
          ))}
        </ol>
      </div>
    )
  return (
    <div className="chat-answer" data-source="unknown">
      <p>{answer.text || t('persona.editor.chat.unknown')}</p>
    </div>
  )
}

/** The checkbox posts `on` (nothing when unchecked); the API's body is `{ accept: true }`. */
export const prepareTerms = (values: Record<string, unknown>) => ({ accept: values.accept === 'on' || values.accept === true })

/** The terms agreement (seed 002 §5: required before the persona is used): who accepted and when, or the form. */
export function TermsPanel({
  accepted,
  acceptedAt,
  acceptedBy,
  timeZone,
}: {
  accepted: boolean
  acceptedAt: string | null
  acceptedBy: string | null
  timeZone: string
}) {
  const { t, i18n } = useTranslation()
  const fetcher = useFetcher()
  return (
    <section className="card" id="persona-terms" aria-labelledby="persona-terms-title">
      <h2 id="persona-terms-title">{t('persona.editor.step.terms')}</h2>
      <p>{t('persona.editor.terms.text')}</p>
      {accepted && acceptedAt ? (
        <p className="success" role="status">
          {t('persona.editor.terms.accepted', {
            by: acceptedBy ?? '',
            at: new Date(acceptedAt).toLocaleString(i18n.language, { timeZone, dateStyle: 'short', timeStyle: 'short' }),
          })}
        </p>
      ) : (
        <KitForm
          id="persona-terms-form"
          schema={PersonaTerms}
          prepare={prepareTerms}
          action="?intent=terms"
          fetcher={fetcher as never}
          lastResult={fetcher.data}
          timeZone={timeZone}
          className="inline-form"
          submitLabel={t('persona.editor.terms.submit')}
          labels={{ accept: t('persona.editor.terms.accept') }}
        >
          <CheckboxInput name="accept" label={t('persona.editor.terms.accept')} required />
        </KitForm>
      )}
    </section>
  )
}
