import { useFetcher, useLoaderData, useRevalidator } from '@remix-run/react'
import { Fragment, useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, ListField, NumberInput, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { ControlHeader, QuestionActions, QuestionEditRow, QuestionsSection, useQuestionEditing, useQuestionForm } from '~/components/quiz/control-header'
import { csvHref } from '~/components/quiz/csv'
import { PollLiveControl } from '~/components/quiz/poll-control'
import { POLL_QUESTION_TYPES, POLL_REQUIREMENTS, PollQuestionInput, type PollQuestion } from '#shared/schemas/quiz'
import { loader, action, type PollLifecycleAnswer } from './control.$pollId.server'

export { loader, action }
export const handle = { title: 'pages.poll.control' }

/** The labels a question's choices are counted under: its options, or 1…scale for a rating. */
function choiceLabels(q: Pick<PollQuestion, 'type' | 'options' | 'params'>): string[] {
  return q.type === 'rating' ? Array.from({ length: q.params.scale ?? 5 }, (_, i) => String(i + 1)) : q.options
}

/** A poll's control screen (seed 002 §2 "Quiz/poll: control"): lifecycle, questions and their results; the sidebar is hidden. */
export default function PollControlRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const op = useFetcher<PollLifecycleAnswer>()
  const revalidator = useRevalidator()
  const reload = useCallback(() => revalidator.revalidate(), [revalidator])
  const { poll, questions, statistics } = d
  const editable = d.canEdit && (poll.status === 'draft' || poll.status === 'active')
  const here = `/poll/control/${poll.id}`
  const required = POLL_REQUIREMENTS.filter((r) => poll.requires[r])
  const votes = new Map(statistics.map((s) => [s.id, s]))
  const edit = useQuestionEditing()
  return (
    <>
      <ControlHeader kind="poll" run={poll} op={op} can={d}>
        <p>
          {t(`resources.poll.type.${poll.type}`)} · {t('resources.poll.fields.question_duration')}: {poll.question_duration} s ·{' '}
          {t('resources.poll.sections.requires')}: {required.length ? required.map((r) => t(`resources.poll.requires.${r}`)).join(', ') : '—'}
        </p>
      </ControlHeader>

      {poll.status === 'active' ? <PollLiveControl pollId={poll.id} onChanged={reload} /> : null}

      <QuestionsSection
        kind="poll"
        columns={[t('resources.poll.fields.text'), t('resources.poll.fields.question_type'), t('resources.quiz.fields.state'), t('resources.poll.votes')]}
        count={questions.length}
        after={
          <>
            {statistics.length ? (
              <a
                className="btn"
                download={`poll-${poll.id}-results.csv`}
                href={csvHref([
                  ['position', 'text', 'voters', 'choice', 'votes'],
                  ...questions.flatMap((q) =>
                    choiceLabels(q).map((label, i) => [
                      q.position + 1,
                      q.text,
                      votes.get(q.id)?.votes ?? 0,
                      label,
                      votes.get(q.id)?.distribution[String(i)] ?? 0,
                    ]),
                  ),
                ])}
              >
                {t('resources.poll.export_results')}
              </a>
            ) : null}
            {editable ? <PollQuestionForm here={here} timeZone={d.timeZone} /> : null}
          </>
        }
      >
        {questions.map((q) => {
          const s = votes.get(q.id)
          const active = poll.status === 'active'
          return (
            <Fragment key={q.id}>
              <tr>
                <td>{q.position + 1}</td>
                <td>
                  {q.text}
                  <br />
                  <small>{choiceLabels(q).join(' · ')}</small>
                </td>
                <td>{t(`resources.poll.question_type.${q.type}`)}</td>
                <td>{t(`resources.quiz.question_state.${q.state}`)}</td>
                <td>
                  <ul className="plain-list" aria-label={t('resources.poll.distribution')}>
                    {choiceLabels(q).map((label, i) => (
                      <li key={i}>
                        {label}: {s?.distribution[String(i)] ?? 0}
                      </li>
                    ))}
                  </ul>
                  <small>{t('resources.poll.voters', { count: s?.votes ?? 0 })}</small>
                </td>
                <td>
                  <QuestionActions
                    op={op}
                    here={here}
                    kind="poll"
                    question={q}
                    editable={editable}
                    hide={active && (q.state === 'pending' || q.state === 'finished') ? 'hide' : null}
                    edit={edit}
                  />
                </td>
              </tr>
              <QuestionEditRow edit={edit} question={q} editable={editable} colSpan={6}>
                <PollQuestionForm here={here} timeZone={d.timeZone} question={q} onDone={edit.close} />
              </QuestionEditRow>
            </Fragment>
          )
        })}
      </QuestionsSection>
    </>
  )
}

/**
 * Add one question (its type, options — two empty ones to start — and params), or, given a pending `question`, change
 * it: the same fields and schema with its saved values, through `PUT /poll/{id}/question/{qid}`; `onDone` on success.
 */
function PollQuestionForm({ here, timeZone, question, onDone }: { here: string; timeZone: string; question?: PollQuestion; onDone?: () => void }) {
  const { t } = useTranslation()
  const form = useQuestionForm('poll', here, question, onDone)
  const f = (n: string) => t(`resources.poll.fields.${n}`)
  return (
    <KitForm
      {...form}
      schema={PollQuestionInput}
      defaultValue={
        question
          ? {
              text: question.text,
              type: question.type,
              options: question.options.length >= 2 ? question.options : [...question.options, '', ''].slice(0, 2),
              params: { max_choices: question.params.max_choices ?? 0, scale: question.params.scale ?? 5 },
            }
          : { text: '', type: 'single', options: ['', ''], params: { max_choices: 0, scale: 5 } }
      }
      timeZone={timeZone}
      className="card simple-form"
      labels={{
        text: f('text'),
        type: f('question_type'),
        options: f('options'),
        'params.max_choices': f('max_choices'),
        'params.scale': f('scale'),
      }}
    >
      <TextArea name="text" label={f('text')} required />
      <SelectInput
        name="type"
        label={f('question_type')}
        options={POLL_QUESTION_TYPES.map((q) => ({ value: q, label: t(`resources.poll.question_type.${q}`) }))}
      />
      <ListField name="options" label={f('options')} addLabel={t('resources.poll.add_option')} newItem="">
        {(name, i) => <TextInput name={name} label={t('resources.poll.option_n', { n: i + 1 })} />}
      </ListField>
      <div className="field-grid">
        <NumberInput name="params.max_choices" label={f('max_choices')} decimal={false} hint={t('resources.poll.hints.max_choices')} />
        <NumberInput name="params.scale" label={f('scale')} decimal={false} hint={t('resources.poll.hints.scale')} />
      </div>
    </KitForm>
  )
}

export const ErrorBoundary = RouteError
