import { Link, useFetcher, type FetcherWithComponents } from '@remix-run/react'
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import type { QuizStatus } from '#shared/schemas/quiz'

/** What a control screen's lifecycle post answers (the quiz's and the poll's actions). */
export type ControlAnswer = { errors?: ErrorItem[]; clone?: { id: string; name: string } }

/** What a lifecycle button needs of the screen's fetcher: its form and whether a post is under way. */
type LifecycleFetcher = Pick<FetcherWithComponents<unknown>, 'Form' | 'state'>

/**
 * One lifecycle button of a control screen: a post of `op` (and `extra` fields, e.g. the question) to the screen
 * itself through the screen's one fetcher, so its answer (errors, a clone) shows in the header.
 */
export function LifecycleButton({
  op,
  here,
  name,
  label,
  extra,
}: {
  op: LifecycleFetcher
  here: string
  name: string
  label: string
  extra?: Record<string, string>
}) {
  return (
    <op.Form method="post" action={here} className="inline-form">
      <input type="hidden" name="op" value={name} />
      {extra ? Object.entries(extra).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />) : null}
      <button type="submit" className="btn" disabled={op.state !== 'idle'}>
        {label}
      </button>
    </op.Form>
  )
}

/**
 * The questions of a control screen: its heading, then a table of `count` rows (`children`) under `#`, the mode's
 * `columns` and the actions column, or "no questions"; `after` follows (exports, the forms that add questions).
 */
export function QuestionsSection({
  kind,
  columns,
  count,
  children,
  after,
}: {
  kind: 'quiz' | 'poll'
  columns: string[]
  count: number
  children: ReactNode
  after?: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section className="card" aria-labelledby={`${kind}-questions-title`}>
      <h2 id={`${kind}-questions-title`}>{t('resources.quiz.sections.questions')}</h2>
      {count ? (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">#</th>
              {columns.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t('resources.quiz.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      ) : (
        <p className="hint">{t('resources.quiz.no_questions')}</p>
      )}
      {after}
    </section>
  )
}

/** Which question of a control screen has its edit form open (one at a most): its id, or null. */
export interface QuestionEditing {
  id: string | null
  set: (id: string | null) => void
  close: () => void
}

export function useQuestionEditing(): QuestionEditing {
  const [id, set] = useState<string | null>(null)
  const close = useCallback(() => set(null), [])
  return { id, set, close }
}

/**
 * The form props of a control screen's question form, adding one question or, given a pending `question`, changing
 * it (`<kind>-question-add` posting `?intent=question`, or `<kind>-question-edit-<id>` posting
 * `?intent=edit_question&question=<id>`, which calls `onDone` once saved): its id, fetcher, answer, action and labels.
 */
export function useQuestionForm(kind: 'quiz' | 'poll', here: string, question: { id: string; position: number } | undefined, onDone?: () => void) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ status?: string }>()
  const saved = question !== undefined && fetcher.state === 'idle' && fetcher.data?.status === 'success'
  useEffect(() => {
    if (saved) onDone?.()
  }, [saved, onDone])
  return {
    id: question ? `${kind}-question-edit-${question.id}` : `${kind}-question-add`,
    fetcher: fetcher as never,
    lastResult: fetcher.data as never,
    action: question ? `${here}?intent=edit_question&question=${encodeURIComponent(question.id)}` : `${here}?intent=question`,
    'aria-label': question ? t('resources.quiz.edit_question', { position: question.position + 1 }) : t('resources.quiz.add_question'),
    submitLabel: question ? t('resources.quiz.save_question') : t('resources.quiz.add_question'),
    submitIcon: question ? ('check' as const) : ('plus' as const),
  }
}

/** The row under a pending question that holds its edit form (`children`), while `edit` has it open and it is `editable`. */
export function QuestionEditRow({
  edit,
  question,
  editable,
  colSpan,
  children,
}: {
  edit: QuestionEditing
  question: { id: string; state: string }
  editable: boolean
  colSpan: number
  children: ReactNode
}) {
  return edit.id === question.id && editable && question.state === 'pending' ? (
    <tr>
      <td colSpan={colSpan}>{children}</td>
    </tr>
  ) : null
}

/**
 * A question's actions in a control screen's table: hide (`hide`: its lifecycle post, when the screen allows it),
 * edit (a pending one: toggles its form `<kind>-question-edit-<id>` in `edit`), delete (a question neither open nor
 * showing its result). `editable`: the user may edit and the quiz or poll is a draft or running.
 */
export function QuestionActions({
  op,
  here,
  kind,
  question,
  editable,
  hide,
  edit,
}: {
  op: LifecycleFetcher
  here: string
  kind: 'quiz' | 'poll'
  question: { id: string; position: number; state: string }
  editable: boolean
  hide: string | null
  edit: QuestionEditing
}) {
  const { t } = useTranslation()
  const q = question
  const editing = edit.id === q.id
  const onEdit = (open: boolean) => edit.set(open ? q.id : null)
  return (
    <>
      {hide ? <LifecycleButton op={op} here={here} name={hide} label={t('resources.quiz.hide')} extra={{ question: q.id }} /> : null}
      {editable && q.state === 'pending' ? (
        <button type="button" className="btn" aria-expanded={editing} aria-controls={`${kind}-question-edit-${q.id}`} onClick={() => onEdit(!editing)}>
          {t('resources.quiz.edit_question', { position: q.position + 1 })}
        </button>
      ) : null}
      {editable && q.state !== 'published' && q.state !== 'result' ? (
        <LifecycleButton op={op} here={here} name="delete_question" label={t('resources.quiz.delete_question')} extra={{ question: q.id }} />
      ) : null}
    </>
  )
}

/**
 * The head of the quiz's and the poll's control screens (issue 14): title with the name and status, back to the
 * list, the lifecycle actions (start and the settings' edit while draft, finish while active, cancel, clone), the refusals the last action
 * got (the seed's §8 messages) and the link to a new clone. `kind` picks the list, the control URL and the
 * labels of finish and cancel (`resources.<kind>.finish`, `….cancel`).
 */
export function ControlHeader({
  kind,
  run,
  op,
  can,
  children,
}: {
  kind: 'quiz' | 'poll'
  /** The quiz or poll (lifecycle posts go to its control screen). */
  run: { id: string; name: string; status: QuizStatus }
  op: LifecycleFetcher & { data?: ControlAnswer }
  /** Whether the user may clone, and change the settings (offered while a draft: `/{kind}/edit/{id}`). */
  can: { canClone: boolean; canEdit: boolean }
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const { id, name, status } = run
  const { canClone, canEdit } = can
  const here = `/${kind}/control/${id}`
  const refused = op.data?.errors ?? []
  const button = (opName: string, label: string) => <LifecycleButton op={op} here={here} name={opName} label={label} />
  return (
    <>
      <div className="page-header">
        <h1>
          {t(`pages.${kind}.control`)}: {name}
        </h1>
        <span className="badge">{t(`resources.quiz.status.${status}`)}</span>
        <Link to={`/${kind}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {children}
      <div className="actions" role="group" aria-label={t('resources.quiz.actions')}>
        {status === 'draft' ? button('start', t('resources.quiz.start')) : null}
        {status === 'draft' && canEdit ? (
          <Link to={`/${kind}/edit/${id}`} className="btn">
            {t('resources.quiz.edit_settings')}
          </Link>
        ) : null}
        {status === 'active' ? button('finish', t(`resources.${kind}.finish`)) : null}
        {status === 'draft' || status === 'active' ? button('cancel', t(`resources.${kind}.cancel`)) : null}
        {canClone ? button('clone', t('resources.quiz.clone')) : null}
      </div>
      {refused.length ? (
        <ul role="alert" className="form-errors">
          {refused.map((e, i) => (
            <li key={i}>{errorText(t, e)}</li>
          ))}
        </ul>
      ) : null}
      {op.data?.clone ? (
        <p role="status">
          <Link to={`/${kind}/control/${op.data.clone.id}`}>{t('resources.quiz.cloned', { name: op.data.clone.name })}</Link>
        </p>
      ) : null}
    </>
  )
}
