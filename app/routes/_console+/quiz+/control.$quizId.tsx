import { Form, useFetcher, useLoaderData, useRevalidator } from '@remix-run/react'
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, SelectInput, TextArea, TextInput, CheckboxInput } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { ControlHeader, QuestionActions, QuestionEditRow, QuestionsSection, useQuestionEditing, useQuestionForm } from '~/components/quiz/control-header'
import { QuizLiveControl } from '~/components/quiz/quiz-control'
import { csvHref } from '~/components/quiz/csv'
import { ImportFilePicker } from '~/components/quiz/import-file'
import { BankImport, type BankOffer } from '~/components/quiz/bank-import'
import { QUIZ_OPTIONS, QuizImportInput, QuizQuestionInput } from '#shared/schemas/quiz'
import { loader, action, type LifecycleAnswer } from './control.$quizId.server'

export { loader, action }
export const handle = { title: 'pages.quiz.control' }

/** Players listed on screen by rank (the statistics CSV has every one). */
const PLAYERS_SHOWN = 50

/** A quiz's control screen (seed 002 §2 "Quiz/poll: control, questions, import, statistics, winners"); the sidebar is hidden. */
export default function QuizControlRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const op = useFetcher<LifecycleAnswer>()
  const revalidator = useRevalidator()
  const { quiz, questions, statistics, winners } = d
  const editable = d.canEdit && (quiz.status === 'draft' || quiz.status === 'active')
  const paid = op.data?.finish?.payouts ?? winners?.payouts ?? []
  const f = (n: string) => t(`resources.quiz.fields.${n}`)
  // Lifecycle posts name the screen itself (the question forms post to `?intent=…`).
  const here = `/quiz/control/${quiz.id}`
  const edit = useQuestionEditing()
  return (
    <>
      <ControlHeader kind="quiz" run={quiz} op={op} can={d} />

      {quiz.status === 'active' ? <QuizLiveControl quizId={quiz.id} onClosed={() => setTimeout(() => revalidator.revalidate(), 500)} /> : null}

      <QuestionsSection
        kind="quiz"
        columns={[t('resources.quiz.fields.text'), t('resources.quiz.fields.correct'), t('resources.quiz.fields.state')]}
        count={questions.length}
        after={editable ? <QuestionForms here={here} timeZone={d.timeZone} bank={d.bank} /> : null}
      >
        {questions.map((q) => (
          <Fragment key={q.id}>
            <tr>
              <td>{q.position + 1}</td>
              <td>
                {q.text}
                <br />
                <small>
                  A: {q.option_a} · B: {q.option_b} · C: {q.option_c}
                  {q.lifes_disallowed ? ` · ${f('lifes_disallowed')}` : ''}
                </small>
              </td>
              <td>{q.correct}</td>
              <td>{t(`resources.quiz.question_state.${q.state}`)}</td>
              <td>
                <QuestionActions
                  op={op}
                  here={here}
                  kind="quiz"
                  question={q}
                  editable={editable}
                  hide={quiz.status === 'active' && q.state === 'finished' ? 'hide_question' : null}
                  edit={edit}
                />
              </td>
            </tr>
            <QuestionEditRow edit={edit} question={q} editable={editable} colSpan={5}>
              <QuizQuestionForm here={here} question={q} timeZone={d.timeZone} onDone={edit.close} />
            </QuestionEditRow>
          </Fragment>
        ))}
      </QuestionsSection>

      <section className="card" aria-labelledby="quiz-stats-title">
        <h2 id="quiz-stats-title">{t('resources.quiz.sections.statistics')}</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('resources.quiz.fields.text')}</th>
              {QUIZ_OPTIONS.map((o) => (
                <th scope="col" key={o}>
                  {o}
                </th>
              ))}
              <th scope="col">{t('resources.quiz.correct_rate')}</th>
              <th scope="col">{t('resources.quiz.mean_time')}</th>
            </tr>
          </thead>
          <tbody>
            {statistics.questions.map((s) => (
              <tr key={s.id}>
                <td>{s.position + 1}</td>
                <td>{s.text}</td>
                {QUIZ_OPTIONS.map((o) => (
                  <td key={o}>{s.distribution[o]}</td>
                ))}
                <td>{Math.round(s.correct_rate * 100)}%</td>
                <td>{(s.mean_ms / 1000).toFixed(1)} s</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>{t('resources.quiz.lives_used', { count: statistics.lives_used })}</p>
        <h3 id="quiz-player-stats-title">{t('resources.quiz.by_player')}</h3>
        {statistics.players.length ? (
          <>
            <table className="table" aria-labelledby="quiz-player-stats-title">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t('quiz.player')}</th>
                  <th scope="col">{t('quiz.score')}</th>
                  <th scope="col">{t('resources.quiz.correct_answers')}</th>
                  <th scope="col">{t('resources.quiz.lives_left')}</th>
                  <th scope="col">{t('resources.quiz.lives_used_column')}</th>
                  <th scope="col">{t('resources.quiz.player_state')}</th>
                </tr>
              </thead>
              <tbody>
                {statistics.players.slice(0, PLAYERS_SHOWN).map((p) => (
                  <tr key={p.nick}>
                    <td>{p.rank}</td>
                    <td>{p.name || p.nick}</td>
                    <td>{p.score}</td>
                    <td>{p.correct_count}</td>
                    <td>{p.lives_left}</td>
                    <td>{p.lives_used}</td>
                    <td>{p.eliminated ? t('resources.quiz.eliminated') : t('resources.quiz.in_game')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {statistics.players.length > PLAYERS_SHOWN ? <p className="hint">{t('resources.quiz.players_more', { count: PLAYERS_SHOWN })}</p> : null}
          </>
        ) : (
          <p className="hint">{t('resources.quiz.no_players')}</p>
        )}
        <a
          className="btn"
          download={`quiz-${quiz.id}-statistics.csv`}
          href={csvHref([
            ['position', 'text', 'correct', 'answers', 'A', 'B', 'C', 'correct_rate', 'mean_ms'],
            ...statistics.questions.map((s) => [
              s.position + 1,
              s.text,
              s.correct,
              s.answers,
              s.distribution.A,
              s.distribution.B,
              s.distribution.C,
              s.correct_rate,
              s.mean_ms,
            ]),
            [],
            ['rank', 'nick', 'name', 'score', 'total_ms', 'correct', 'lives_left', 'lives_used', 'eliminated'],
            ...statistics.players.map((p) => [p.rank, p.nick, p.name, p.score, p.total_ms, p.correct_count, p.lives_left, p.lives_used, p.eliminated]),
          ])}
        >
          {t('resources.quiz.export_statistics')}
        </a>
      </section>

      <section className="card" aria-labelledby="quiz-winners-title">
        <h2 id="quiz-winners-title">{t('resources.quiz.sections.winners')}</h2>
        {winners ? (
          <>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t('quiz.player')}</th>
                  <th scope="col">{t('quiz.score')}</th>
                  <th scope="col">{t('resources.quiz.paid')}</th>
                </tr>
              </thead>
              <tbody>
                {winners.items.map((w) => {
                  const payout = paid.find((p) => p.nick === w.nick)
                  return (
                    <tr key={w.nick}>
                      <td>{w.rank}</td>
                      <td>{w.name || w.nick}</td>
                      <td>{w.score}</td>
                      <td>{payout ? t('resources.quiz.paid_points', { points: payout.points }) : '—'}</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
            <a
              className="btn"
              download={`quiz-${quiz.id}-winners.csv`}
              href={csvHref([
                ['rank', 'nick', 'name', 'score', 'total_ms', 'paid_points', 'transaction_id'],
                ...winners.items.map((w) => {
                  const p = paid.find((x) => x.nick === w.nick)
                  return [w.rank, w.nick, w.name, w.score, w.total_ms, p?.points ?? 0, p?.transaction_id ?? '']
                }),
              ])}
            >
              {t('resources.quiz.export_winners')}
            </a>
          </>
        ) : (
          <p>{t('quiz.error.winners_not_found')}</p>
        )}
      </section>
      <Form method="get" hidden />
    </>
  )
}

type QuestionRow = ReturnType<typeof useLoaderData<typeof loader>>['questions'][number]

/**
 * Add one question, or, given a pending `question`, change it: the same fields and schema with its saved values,
 * through `PUT /quiz/{id}/question/{qid}`; `onDone` on success.
 */
function QuizQuestionForm({ here, question, timeZone, onDone }: { here: string; question?: QuestionRow; timeZone: string; onDone?: () => void }) {
  const { t } = useTranslation()
  const form = useQuestionForm('quiz', here, question, onDone)
  const f = (n: string) => t(`resources.quiz.fields.${n}`)
  return (
    <KitForm
      {...form}
      schema={QuizQuestionInput}
      defaultValue={
        question
          ? {
              text: question.text,
              option_a: question.option_a,
              option_b: question.option_b,
              option_c: question.option_c,
              correct: question.correct,
              lifes_disallowed: question.lifes_disallowed,
            }
          : { text: '', option_a: '', option_b: '', option_c: '', correct: '', lifes_disallowed: false }
      }
      timeZone={timeZone}
      className={question ? 'simple-form' : 'card simple-form'}
      labels={Object.fromEntries(['text', 'option_a', 'option_b', 'option_c', 'correct', 'lifes_disallowed'].map((n) => [n, f(n)]))}
    >
      <TextArea name="text" label={f('text')} required />
      <TextInput name="option_a" label={f('option_a')} required />
      <TextInput name="option_b" label={f('option_b')} required />
      <TextInput name="option_c" label={f('option_c')} required />
      <SelectInput name="correct" label={f('correct')} options={QUIZ_OPTIONS.map((o) => ({ value: o, label: o }))} placeholder="—" required />
      <CheckboxInput name="lifes_disallowed" label={f('lifes_disallowed')} />
    </KitForm>
  )
}

/** Add one question, or import a CSV/JSON file's questions (errors by line), or items of the task question bank. */
function QuestionForms({ here, timeZone, bank }: { here: string; timeZone: string; bank: BankOffer | null }) {
  const { t } = useTranslation()
  const imp = useFetcher()
  const f = (n: string) => t(`resources.quiz.fields.${n}`)
  return (
    <div className="field-grid">
      <QuizQuestionForm here={here} timeZone={timeZone} />
      <KitForm
        id="quiz-question-import"
        schema={QuizImportInput}
        fetcher={imp as never}
        lastResult={imp.data}
        action={`${here}?intent=import`}
        defaultValue={{ format: 'csv', content: '' }}
        timeZone={timeZone}
        className="card simple-form"
        aria-label={t('resources.quiz.import')}
        submitLabel={t('resources.quiz.import')}
        submitIcon="upload"
        labels={{ format: f('format'), content: f('content') }}
      >
        <ImportFilePicker />
        <SelectInput
          name="format"
          label={f('format')}
          options={[
            { value: 'csv', label: 'CSV' },
            { value: 'json', label: 'JSON' },
          ]}
        />
        <TextArea name="content" label={f('content')} rows={6} code hint={t('resources.quiz.hints.import')} />
      </KitForm>
      {bank ? <BankImport here={here} timeZone={timeZone} bank={bank} /> : null}
    </div>
  )
}

export const ErrorBoundary = RouteError
