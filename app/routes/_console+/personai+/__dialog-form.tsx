import { useField, useFormMetadata } from '@conform-to/react'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useState, type ChangeEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, KitField, ListField, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { ConfirmDialog } from '~/components/ui/dialog'
import { PageHeader } from '~/components/ui/page-header'
import { ANSWER_TYPES, DIALOG_TYPES, URL_ANSWER_TYPES, type PersonaDialog, type SpeechType } from '#shared/schemas/persona'
import { dialogLabel, dialogSchema, dialogStart, prepareDialog } from './__dialog'
import type { DialogScreenRoute, dialogScreenLoader, saveDialog } from './__dialog.server'

/**
 * The dialog create or edit screen (`dialogScreenLoader`, `saveDialog`): the persona named in the title, the way back
 * to its dialogs, the edited dialog's stage, and the form.
 */
export function DialogScreen({ route }: { route: DialogScreenRoute }) {
  const d = useLoaderData<typeof dialogScreenLoader>()
  const lastResult = useActionData<typeof saveDialog>()
  const { t } = useTranslation()
  const others = d.dialogs.map((x) => ({ id: x.id, label: dialogLabel(x, t(`persona.dialog.type.${x.type}`)) }))
  return (
    <>
      <PageHeader title={`${t(`pages.${route}`)}: ${d.persona.name}`} back={`/personai/persona/${encodeURIComponent(d.persona.id)}/dialog`} />
      {d.dialog ? <p className="hint">{t(`persona.stage.${d.dialog.stage}`)}</p> : null}
      <DialogForm
        key={d.dialog ? `${d.dialog.id}:${d.dialog.updated_at}` : 'new'}
        dialog={d.dialog}
        others={others}
        speechType={d.persona.speech_type}
        lastResult={lastResult}
        timeZone={d.timeZone}
      />
    </>
  )
}

const isUrlType = (type: string) => (URL_ANSWER_TYPES as readonly string[]).includes(type)

/**
 * A persona dialog's form (seed 002 §3 "Dialogs", §5): type, name, questions (ways of asking) and answers of every
 * answer type; an option leads to another dialog of the persona. Unsaved changes are protected (seed 000 §2.4).
 */
export function DialogForm({
  dialog,
  others,
  speechType,
  lastResult,
  timeZone,
}: {
  dialog: PersonaDialog | null
  /** The persona's other dialogs (the ones an option may lead to). */
  others: { id: string; label: string }[]
  speechType: SpeechType
  lastResult: unknown
  timeZone: string
}) {
  const { t } = useTranslation()
  return (
    <KitForm
      id="dialog-form"
      schema={dialogSchema}
      prepare={prepareDialog}
      lastResult={lastResult}
      defaultValue={dialogStart(dialog)}
      timeZone={timeZone}
      protect
      aria-label={t(dialog ? 'pages.persona.dialog.edit' : 'pages.persona.dialog.create')}
      labels={{
        type: t('persona.dialog.fields.type'),
        name: t('persona.dialog.fields.name'),
        questions: t('persona.dialog.fields.questions'),
        answers: t('persona.dialog.fields.answers'),
      }}
    >
      <div className="field-grid">
        <SelectInput
          name="type"
          label={t('persona.dialog.fields.type')}
          options={DIALOG_TYPES.map((x) => ({ value: x, label: t(`persona.dialog.type.${x}`) }))}
        />
        <TextInput name="name" label={t('persona.dialog.fields.name')} />
      </div>
      <ListField name="questions" label={t('persona.dialog.fields.questions')} addLabel={t('persona.dialog.add_question')} newItem="">
        {(item, i) => <TextInput name={item} label={t('persona.dialog.question_n', { n: i + 1 })} hint={t('persona.dialog.question_hint')} />}
      </ListField>
      <ListField
        name="answers"
        label={t('persona.dialog.fields.answers')}
        addLabel={t('persona.dialog.add_answer')}
        newItem={{ type: 'text', text: '', url: '', options: [], animation_provider: '' }}
      >
        {(item, i) => <AnswerFields name={item} index={i} others={others} speechType={speechType} />}
      </ListField>
    </KitForm>
  )
}

/** One answer: its type decides its fields; leaving `options` with options asks first, then discards them (§4). */
export function AnswerFields({
  name,
  index,
  others,
  speechType,
}: {
  name: string
  index: number
  others: { id: string; label: string }[]
  speechType: SpeechType
}) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const [type] = useField<string>(`${name}.type`)
  const [options] = useField<unknown[]>(`${name}.options`)
  const [pending, setPending] = useState<string | null>(null)
  // The type the screen shows (its fields follow it): changed at once, or once the discarding of options is confirmed.
  const [current, setCurrent] = useState(String(type.initialValue ?? 'text'))
  const optionCount = options.getFieldList().length
  const change = (e: ChangeEvent<HTMLSelectElement>) => {
    const next = e.target.value
    if (current === 'options' && next !== 'options' && optionCount > 0) {
      // Back to what it was until the change is confirmed.
      e.target.value = current
      setPending(next)
      return
    }
    setCurrent(next)
  }
  return (
    <div className="answer-fields" data-answer={index}>
      <KitField name={`${name}.type`} label={t('persona.dialog.answer_n', { n: index + 1 })}>
        {({ key, defaultValue, ...c }) => (
          <select key={key} {...c} className="input" defaultValue={current} onChange={change}>
            {ANSWER_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(`persona.dialog.answer_type.${x}`)}
              </option>
            ))}
          </select>
        )}
      </KitField>
      {isUrlType(current) ? <TextInput name={`${name}.url`} type="url" label={t('persona.dialog.fields.url')} required /> : null}
      {current === 'text' ? (
        <>
          <TextArea name={`${name}.text`} label={t('persona.dialog.fields.text')} required />
          {speechType === 'animation' ? (
            <SelectInput
              name={`${name}.animation_provider`}
              label={t('persona.dialog.fields.animation')}
              hint={t('persona.dialog.animation_hint')}
              placeholder={t('persona.dialog.animation_none')}
              options={[{ value: 'browser', label: t('persona.dialog.animation_browser') }]}
            />
          ) : null}
        </>
      ) : null}
      {current === 'options' ? (
        <ListField
          name={`${name}.options`}
          label={t('persona.dialog.fields.options')}
          addLabel={t('persona.dialog.add_option')}
          newItem={{ text: '', dialog_id: '' }}
        >
          {(opt, j) => (
            <div className="field-grid">
              <TextInput name={`${opt}.text`} label={t('persona.dialog.option_n', { n: j + 1 })} required />
              <SelectInput
                name={`${opt}.dialog_id`}
                label={t('persona.dialog.fields.dialog_id')}
                placeholder={t('tms.form.none')}
                options={others.map((o) => ({ value: o.id, label: o.label }))}
                required
              />
            </div>
          )}
        </ListField>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        title={t('persona.dialog.type_change.title')}
        message={t('persona.dialog.type_change.message', { count: optionCount })}
        confirmLabel={t('persona.dialog.type_change.confirm')}
        cancelLabel={t('persona.dialog.type_change.cancel')}
        danger
        onConfirm={() => {
          form.update({ name: `${name}.options`, value: [] })
          form.update({ name: `${name}.type`, value: pending ?? 'text' })
          setCurrent(pending ?? 'text')
          setPending(null)
        }}
        onCancel={() => setPending(null)}
      />
    </div>
  )
}
