import { useTranslation } from 'react-i18next'
import type { SettingsFormProps } from '~/components/quiz/settings-page'
import { CheckboxInput, KitForm, NumberInput, SelectInput, TextInput } from '~/components/form/kit'
import { POLL_REQUIREMENTS, POLL_TYPES, PollInput, type Poll } from '#shared/schemas/quiz'

const NEW_POLL = { type: 'open', question_duration: 30, requires: { age: false, gender: false, location: false } }

/** A saved poll's settings as the form's values (only the fields `PollInput` has). */
export const pollValues = (p: Poll) => ({
  type: p.type,
  name: p.name,
  channel_id: p.channel_id,
  question_duration: p.question_duration,
  requires: { age: p.requires.age === true, gender: p.requires.gender === true, location: p.requires.location === true },
})

/** A poll's settings (seed 002 §3 "Poll", §5): one schema with the API's; create and the draft's edit. */
export function PollForm({ channels, timeZone, lastResult, draft: poll }: SettingsFormProps<Poll>) {
  const { t } = useTranslation()
  const f = (n: string) => t(`resources.poll.fields.${n}`)
  const req = (n: string) => t(`resources.poll.requires.${n}`)
  return (
    <KitForm
      id="poll-form"
      schema={PollInput}
      lastResult={lastResult}
      defaultValue={poll ? pollValues(poll) : NEW_POLL}
      timeZone={timeZone}
      labels={{
        ...Object.fromEntries(['type', 'name', 'channel_id', 'question_duration'].map((n) => [n, f(n)])),
        ...Object.fromEntries(POLL_REQUIREMENTS.map((n) => [`requires.${n}`, req(n)])),
      }}
      protect
      aria-label={t(poll ? 'pages.poll.edit' : 'pages.poll.create')}
    >
      <section className="card">
        <TextInput name="name" label={f('name')} required />
        <SelectInput name="type" label={f('type')} options={POLL_TYPES.map((p) => ({ value: p, label: t(`resources.poll.type.${p}`) }))} required />
        <SelectInput name="channel_id" label={f('channel_id')} options={channels} placeholder={t('resources.quiz.choose_channel')} required />
        {channels.length === 0 ? <p className="hint">{t('resources.poll.hints.no_channels')}</p> : null}
        <NumberInput name="question_duration" label={f('question_duration')} decimal={false} required hint={t('resources.quiz.hints.seconds')} />
      </section>
      <section className="card">
        <h2>{t('resources.poll.sections.requires')}</h2>
        <p className="hint">{t('resources.poll.hints.requires')}</p>
        {POLL_REQUIREMENTS.map((n) => (
          <CheckboxInput key={n} name={`requires.${n}`} label={req(n)} />
        ))}
      </section>
    </KitForm>
  )
}
