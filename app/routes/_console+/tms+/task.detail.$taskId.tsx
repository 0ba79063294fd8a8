import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { Fragment, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '~/components/ui/data-table'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { QuestionView } from '~/components/tms/question-view'
import { translatedErrors } from '~/lib/error-text'
import { formatTime } from '~/lib/format'
import { useClock, ZoneCaption } from '~/components/ui/clock'
import { isoToZoned } from '~/lib/zoned-time'
import { LOCALE_FIELD, dateTimePattern, showDateTime } from '~/lib/form-kit'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { taskDetailAction } from './__task-detail.server'
import { formulaLinks } from '~/components/tms/formula-styles'
import { AnswerStatus, CORRECTABLE, DeliveryBadge } from '~/components/tms/answer-badges'
import type { AnswerItem } from '~/lists/tms-answer'

// This page shows formulas: it links KaTeX's stylesheet (no other page does).
export const links = formulaLinks

export const handle = { title: 'pages.tms.task.detail' }

/** Deliveries listed on the task's page, newest first; the answers list (tms/answer) has them all. */
const DELIVERIES_SHOWN = 100

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'tms.task.detail')
  const p = user.permissions
  const [task, extra, deliveries] = await Promise.all([
    orErrorResponse(apiData(api.tms.task[':id'].$get({ param: { id: params.taskId ?? '' } }))),
    apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'task' } })),
    // The newest deliveries (the whole list, filtered and exported, is tms/answer).
    apiData(api.tms.answer.task[':taskId'].$get({ param: { taskId: params.taskId ?? '' }, query: { limit: String(DELIVERIES_SHOWN) } })).catch(() => null),
  ])
  // The realm's task fields with this task's values, under the realm's own labels.
  const extraValues = extra.items.map((f) => ({ key: f.key, label: f.label, value: task.extra?.[f.key] ?? '' }))
  return {
    task,
    extraValues,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    deliveries,
    can: {
      edit: p.tms_task_edit,
      remove: p.tms_task_delete,
      token: p.tms_token_generate && (p.tms_task_list_by_target || p.tms_task_list_others),
      correct: Boolean(p.tms_task_correct),
      answers: Boolean(p.tms_answer_list),
    },
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => taskDetailAction(request, context, params.taskId ?? '')

export default function TaskDetailRoute() {
  const { task, extraValues, timeZone, can, deliveries } = useLoaderData<typeof loader>()
  const result = useActionData<{ ok: boolean; intent?: string; errors: ErrorItem[] }>()
  const navigation = useNavigation()
  const submit = useSubmit()
  const { t, i18n } = useTranslation()
  const clock = useClock()
  const toast = useToast()
  const [removing, setRemoving] = useState(false)
  const busy = navigation.state !== 'idle'
  useEffect(() => {
    if (!result) return
    if (result.ok) toast.push({ kind: 'success', message: `tms.task.done_${result.intent}` })
    else toast.pushErrors(translatedErrors(t, result.errors), { title: 'tms.task.change_failed' })
  }, [result, toast, t])
  const rooms = [...new Set(task.targets.map((x) => x.room_name).filter((x): x is string => Boolean(x)))]
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{task.title}</h1>
          <p>
            <span className={`badge status-${task.status}`}>{t(`tms.status.${task.status}`)}</span>{' '}
            <span className="hint">{t('tms.task.version', { version: String(task.model_version) })}</span>
          </p>
        </div>
        <Link to="/tms/task" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {task.newer_version ? (
        <div className="alert alert-info" role="status">
          <p>{t('tms.task.update_offer_text', { version: String(task.latest_version) })}</p>
          {can.edit ? (
            <Form method="post">
              <button className="btn btn-primary" name="intent" value="update_version" disabled={busy}>
                {t('tms.task.update_to', { version: String(task.latest_version) })}
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <section className="card" aria-labelledby="task-facts">
        <h2 id="task-facts">{t('tms.task.publication')}</h2>
        <dl className="facts">
          <dt>{t('resources.tms_task.fields.publication_type')}</dt>
          <dd>{t(`tms.publication.${task.publication_type}`)}</dd>
          <dt>{t('tms.task.targets')}</dt>
          <dd>
            <ul>
              {task.targets.map((x, i) => (
                <li key={i}>{x.group_name ?? (x.nick ? `${x.room_name} · ${x.nick}` : x.room_name)}</li>
              ))}
            </ul>
          </dd>
          <dt>{t('resources.tms_task.fields.publish_at')}</dt>
          <dd>{formatTime(task.publish_at, clock)}</dd>
          <dt>{t('resources.tms_task.fields.expire_at')}</dt>
          <dd>{formatTime(task.expire_at, clock)}</dd>
          <dt>{t('resources.tms_task.fields.display_answer_at')}</dt>
          <dd>{formatTime(task.display_answer_at, clock) || '—'}</dd>
          <dt>{t('resources.tms_task.fields.correct_at')}</dt>
          <dd>{formatTime(task.correct_at, clock) || '—'}</dd>
          <dt>{t('resources.tms_task.fields.show_timer')}</dt>
          <dd>{t(task.show_timer ? 'tms.yes' : 'tms.no')}</dd>
          <dt>{t('tms.task.created')}</dt>
          <dd>{t('tms.task.created_by', { by: task.created_by, at: formatTime(task.created_at, clock) })}</dd>
          {extraValues.map((f) => (
            <Fragment key={f.key}>
              <dt>{f.label}</dt>
              <dd>{f.value || '—'}</dd>
            </Fragment>
          ))}
        </dl>
        <ZoneCaption label={(zone) => t('table.time_zone', { zone })} />
        {can.edit ? (
          <div className="toolbar-actions">
            <Form method="post">
              <button className="btn" name="intent" value={task.scheduling_enabled ? 'pause' : 'resume'} disabled={busy}>
                {t(task.scheduling_enabled ? 'tms.task.pause' : 'tms.task.resume')}
              </button>
            </Form>
            <Form method="post" className="inline-form">
              <input type="hidden" name="intent" value="expire" />
              <label htmlFor="new-expiry">{t('tms.task.new_expiry')}</label>
              {/* Typed in the page language's format (the browser's own date-time input follows the browser's language); the
                  form works without script: the action reads the text in the language posted beside it. */}
              <input type="hidden" name={LOCALE_FIELD} value={i18n.language} />
              <input
                id="new-expiry"
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                name="expire_at"
                placeholder={dateTimePattern(i18n.language)}
                defaultValue={showDateTime(isoToZoned(task.expire_at, timeZone), i18n.language)}
                required
              />
              <button className="btn" disabled={busy}>
                {t('tms.form.save')}
              </button>
            </Form>
          </div>
        ) : null}
      </section>
      {can.token && task.token ? (
        <section className="card" aria-labelledby="task-tokens">
          <h2 id="task-tokens">{t('tms.token.title')}</h2>
          <ul className="link-list">
            {rooms.map((name) => (
              <li key={name}>
                <Link to={`/tms/token/edit/room/${encodeURIComponent(name)}/task/${task.id}`}>
                  <Icon name="key" /> {t('tms.token.for_room', { room: name })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Deliveries taskId={task.id} page={deliveries} can={can} busy={busy} />
      <section className="card" aria-labelledby="task-content">
        <h2 id="task-content">{t('tms.task.content', { version: String(task.model_version) })}</h2>
        {(task.content?.questions ?? []).map((q, i) => (
          <QuestionView key={(q as { id?: string }).id ?? i} q={q} index={i} />
        ))}
      </section>
      {can.remove ? (
        <div className="form-actions">
          <button type="button" className="btn btn-danger" onClick={() => setRemoving(true)}>
            <Icon name="trash" /> {t('tms.task.delete')}
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={removing}
        title={t('tms.task.delete')}
        message={t('tms.task.delete_confirm', { name: task.title })}
        confirmLabel={t('tms.list.delete_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setRemoving(false)}
        onConfirm={() => {
          setRemoving(false)
          submit({ intent: 'delete' }, { method: 'post' })
        }}
      />
    </>
  )
}

/**
 * The task's deliveries (seed 001 §2 `tms/task/detail/{taskId}`): who, when, on time or late, status, score, with a
 * link to correct each delivered answer and, for a student still working (a draft), the restore of their timer.
 */
function Deliveries({
  taskId,
  page,
  can,
  busy,
}: {
  taskId: string
  page: { items: AnswerItem[]; total: number; total_capped?: boolean } | null
  can: { correct: boolean; answers: boolean; edit?: boolean }
  busy: boolean
}) {
  const { t, i18n } = useTranslation()
  const clock = useClock()
  return (
    <section className="card" aria-labelledby="task-deliveries">
      <h2 id="task-deliveries">{t('correct.deliveries.title')}</h2>
      {page === null ? (
        <p className="alert alert-error" role="alert">
          {t('correct.deliveries.error')}
        </p>
      ) : (
        <>
          <DataTable
            rows={page.items}
            empty={t('correct.deliveries.empty')}
            caption={t('correct.deliveries.caption', { count: page.total })}
            columns={[
              t('resources.tms_answer.fields.student'),
              t('resources.tms_answer.fields.room'),
              t('resources.tms_answer.fields.status'),
              t('resources.tms_answer.fields.delivered_at'),
              t('resources.tms_answer.fields.delivery'),
              t('resources.tms_answer.fields.score'),
              t('table.actions'),
            ]}
          >
            {(row) => (
              <tr key={row.id}>
                <td>
                  {row.student_name || row.nick} <span className="hint">{row.nick}</span>
                </td>
                <td>{row.room_name}</td>
                <td>
                  <AnswerStatus status={row.status} />
                </td>
                <td>{formatTime(row.delivered_at, clock) || '—'}</td>
                <td>
                  <DeliveryBadge delivery={row.delivery} />
                </td>
                <td>
                  {row.score === null ? '—' : t('correct.score_of', { score: points(row.score, i18n.language), max: points(row.max_score, i18n.language) })}
                </td>
                <td>
                  {can.correct && CORRECTABLE.includes(row.status) ? (
                    <Link className="btn" to={`/tms/task/${taskId}/${row.id}/correct`}>
                      <Icon name="edit" /> {t('correct.correct_student', { name: row.student_name || row.nick })}
                    </Link>
                  ) : null}
                  {can.correct && row.status === 'draft' ? (
                    <Form method="post">
                      <input type="hidden" name="nick" value={row.nick} />
                      <button className="btn" name="intent" value="restore_timer" disabled={busy}>
                        {t('correct.restore_timer_of', { name: row.student_name || row.nick })}
                      </button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            )}
          </DataTable>
          {page.items.length ? <ZoneCaption label={(zone) => t('table.time_zone', { zone })} /> : null}
        </>
      )}
      {can.answers ? (
        <p>
          <Link to={`/tms/answer?task_id=${encodeURIComponent(taskId)}`}>{t('correct.deliveries.all', { count: page?.total ?? 0 })}</Link>
        </p>
      ) : null}
    </section>
  )
}

const points = (v: number, locale: string) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(v)

export const ErrorBoundary = RouteError
