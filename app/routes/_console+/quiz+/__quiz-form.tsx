import { useTranslation } from 'react-i18next'
import type { SettingsFormProps } from '~/components/quiz/settings-page'
import { KitForm, NumberInput, SelectInput, TextInput } from '~/components/form/kit'
import { MAX_LIVES, QuizInput, REWARD_CURRENCIES, REWARD_TYPES, type Quiz } from '#shared/schemas/quiz'

/** The settings of a quiz the form starts from (the new quiz's defaults, or the draft being changed). */
const NEW_QUIZ = { reward_currency: 'BRL', reward_type: 'realm', question_duration: 20, lifes_timeout: 15, lives: 1, reward_value: 0, reward_per_player: 0 }

/** A saved quiz's settings as the form's values (only the fields `QuizInput` has). */
export const quizValues = (q: Quiz) => ({
  name: q.name,
  channel_id: q.channel_id,
  reward_type: q.reward_type,
  reward: q.reward,
  reward_value: q.reward_value,
  reward_per_player: q.reward_per_player,
  reward_currency: q.reward_currency,
  question_duration: q.question_duration,
  lifes_timeout: q.lifes_timeout,
  lives: q.lives,
})

/** The quiz's settings form (seed 002 §3 "Quiz", §5): one schema with the API's; create and the draft's edit. */
export function QuizForm({ channels, timeZone, lastResult, draft: quiz }: SettingsFormProps<Quiz>) {
  const { t } = useTranslation()
  const f = (name: string) => t(`resources.quiz.fields.${name}`)
  const names = [
    'name',
    'channel_id',
    'reward_type',
    'reward',
    'reward_value',
    'reward_per_player',
    'reward_currency',
    'question_duration',
    'lifes_timeout',
    'lives',
  ]
  return (
    <KitForm
      id="quiz-form"
      schema={QuizInput}
      lastResult={lastResult}
      defaultValue={quiz ? quizValues(quiz) : NEW_QUIZ}
      timeZone={timeZone}
      labels={Object.fromEntries(names.map((n) => [n, f(n)]))}
      protect
      aria-label={t(quiz ? 'pages.quiz.edit' : 'pages.quiz.create')}
    >
      <section className="card">
        <TextInput name="name" label={f('name')} required />
        <SelectInput name="channel_id" label={f('channel_id')} options={channels} placeholder={t('resources.quiz.choose_channel')} required />
        {channels.length === 0 ? <p className="hint">{t('resources.quiz.hints.no_channels')}</p> : null}
        <div className="field-grid">
          <NumberInput name="question_duration" label={f('question_duration')} decimal={false} required hint={t('resources.quiz.hints.seconds')} />
          <NumberInput name="lifes_timeout" label={f('lifes_timeout')} decimal={false} required hint={t('resources.quiz.hints.seconds')} />
          <NumberInput name="lives" label={f('lives')} decimal={false} hint={t('resources.quiz.hints.lives', { max: MAX_LIVES })} />
        </div>
      </section>
      <section className="card">
        <h2>{t('resources.quiz.sections.reward')}</h2>
        <SelectInput
          name="reward_type"
          label={f('reward_type')}
          options={REWARD_TYPES.map((r) => ({ value: r, label: t(`resources.quiz.reward_type.${r}`) }))}
          required
        />
        <TextInput name="reward" label={f('reward')} />
        <div className="field-grid">
          <NumberInput name="reward_value" label={f('reward_value')} decimal={false} required hint={t('resources.quiz.hints.reward_value')} />
          <NumberInput name="reward_per_player" label={f('reward_per_player')} decimal={false} required />
          <SelectInput name="reward_currency" label={f('reward_currency')} options={REWARD_CURRENCIES.map((c) => ({ value: c, label: c }))} />
        </div>
      </section>
    </KitForm>
  )
}
