import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { SurveyPublishForm } from '~/components/survey/publish-form'
import { Time } from '~/components/ui/clock'
import { DeleteConfirm } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { surveyDetailAction } from './__survey.server'

export const handle = { title: 'pages.survey.survey.detail' }

/**
 * `/survey/survey/detail/{surveyId}`: the survey, its targets and who answered (with links to revise and to the
 * result); with `survey_survey_edit` its dates and targets can change here, with `survey_survey_delete` the
 * publication can be withdrawn (issue 19).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'survey.survey.detail')
  const id = params.surveyId ?? ''
  const p = user.permissions
  const [detail, answers, options] = await Promise.all([
    orErrorResponse(apiData(api.survey.survey[':id'].$get({ param: { id } }))),
    orErrorResponse(apiData(api.survey.survey[':id'].answers.$get({ param: { id } }))),
    p.survey_survey_edit ? orErrorResponse(apiData(api.survey.survey.options.$get())) : null,
  ])
  const targets = detail.targets
  return {
    survey: detail,
    answers: answers.items,
    options,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    initial: {
      publication_type: detail.publication_type,
      rooms: targets.flatMap((x) => (x.room_id && !x.nick && !x.group_id ? [x.room_id] : [])),
      members: targets.flatMap((x) => (x.room_id && x.nick ? [{ room: x.room_id, nick: x.nick }] : [])),
      groups: targets.flatMap((x) => (x.group_id ? [x.group_id] : [])),
      publish_at: detail.publish_at,
      expire_at: detail.expire_at,
    },
    can: {
      revise: Boolean(p.survey_survey_edit),
      edit: Boolean(p.survey_survey_edit),
      withdraw: Boolean(p.survey_survey_delete),
      result: Boolean(p.survey_survey_result),
    },
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => surveyDetailAction(request, context, params.surveyId ?? '')

/** Withdraw (delete the publication) after typing the word; refused with answers, so the button is disabled and described by why (`withdraw-{id}`). */
function WithdrawButton({ id, title, answered }: { id: string; title: string; answered: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<{ errors?: ErrorItem[] }>({ key: 'survey-withdraw' })
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'survey.withdraw.failed' })
  }, [fetcher.state, fetcher.data, toast, t])
  const word = t('lesson.delete_word')
  return (
    <>
      <button
        type="button"
        className="btn btn-danger"
        disabled={answered || fetcher.state !== 'idle'}
        aria-describedby={answered ? `withdraw-${id}` : undefined}
        onClick={() => setOpen(true)}
      >
        <Icon name="trash" /> {t('survey.withdraw.button')}
      </button>
      <DeleteConfirm
        item={open ? id : null}
        prefix="survey.withdraw"
        values={{ name: title, word }}
        typeToConfirm={word}
        onConfirm={() => fetcher.submit({ intent: 'withdraw' }, { method: 'post' })}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

export default function SurveyDetailRoute() {
  const { survey, answers, options, initial, timeZone, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{survey.title}</h1>
          <p className="hint">
            {t(`lesson.status.${survey.status}`)} · {survey.rooms || '—'} · {t('survey.model.questions', { count: survey.question_count })}
          </p>
        </div>
        <div className="toolbar-actions">
          {can.result ? (
            <Link to={`/survey/survey/${survey.id}/result`} className="btn">
              <Icon name="chart" /> {t('pages.survey.survey.result')}
            </Link>
          ) : null}
          {can.withdraw ? <WithdrawButton id={survey.id} title={survey.title} answered={survey.answer_count > 0} /> : null}
          <Link to="/survey/survey" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      {can.withdraw && survey.answer_count > 0 ? (
        <p className="hint" id={`withdraw-${survey.id}`}>
          {t('validation.survey.withdraw_answered')}
        </p>
      ) : null}
      {survey.description ? <p className="card">{survey.description}</p> : null}
      <section aria-labelledby="survey-publication">
        <h2 id="survey-publication">{t('survey.edit.title')}</h2>
        <p className="alert alert-info" role="note">
          {t('survey.edit.questions_fixed')}
        </p>
        {can.edit && options ? (
          <SurveyPublishForm
            key={survey.updated_at}
            modelId={survey.model_id}
            options={options}
            timeZone={timeZone}
            initial={initial}
            submit={{ label: 'survey.edit.save', intent: 'update' }}
            notice={t('survey.edit.targets_hint')}
          />
        ) : (
          <p className="card">
            {t('resources.tms_task.fields.publish_at')}: <Time iso={survey.publish_at} /> · {t('resources.tms_task.fields.expire_at')}:{' '}
            {survey.expire_at ? <Time iso={survey.expire_at} /> : '—'}
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="survey-answers">
        <h2 id="survey-answers">{t('survey.detail.answers', { count: answers.length })}</h2>
        {answers.length === 0 ? (
          <p className="hint" role="status">
            {t('survey.detail.empty')}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t('survey.detail.student')}</th>
                  <th scope="col">{t('survey.detail.room')}</th>
                  <th scope="col">{t('survey.detail.answered_at')}</th>
                  <th scope="col">{t('survey.detail.revisions')}</th>
                  {can.revise ? <th scope="col">{t('survey.detail.actions')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {answers.map((a) => (
                  <tr key={a.id}>
                    <td>
                      {a.name} <span className="hint">({a.nick})</span>
                    </td>
                    <td>{a.room_name ?? '—'}</td>
                    <td>
                      <Time iso={a.created_at} />
                    </td>
                    <td>{a.revision_count ? t('survey.detail.revised_by', { count: a.revision_count, nick: a.updated_by }) : '—'}</td>
                    {can.revise ? (
                      <td>
                        <Link className="btn btn-icon" to={`/survey/survey/${survey.id}/${a.id}/revise`}>
                          <Icon name="edit" label={t('survey.detail.revise_of', { name: a.name })} />
                        </Link>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  )
}

export const ErrorBoundary = RouteError
