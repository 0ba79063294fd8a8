import { useField } from '@conform-to/react'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { TrackRooms } from '~/components/achievement/track-progress'
import { CheckboxInput, KitForm, ListField, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { TRACK_ITEM_KINDS, TrackInput } from '#shared/schemas/achievement'
import type { trackScreen } from './__track.server'
import { prepareTrack } from './__track'

type Choice = { id: string; title: string }

/** A track (issue 19): title, description, tags, public flag and its ordered items (task models, lessons and survey models). */
export function TrackForm() {
  const { track, taskModels, lessons, surveys, timeZone, progress, can } = useLoaderData<Awaited<ReturnType<typeof trackScreen>>>()
  const lastResult = useActionData()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{track ? `${t('pages.track.edit')}: ${track.title}` : t('pages.track.create')}</h1>
        <Link to="/track" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <KitForm
        key={track?.id ?? 'new'}
        schema={TrackInput}
        prepare={prepareTrack}
        lastResult={lastResult}
        defaultValue={(track ? { ...track, tags: track.tags.join(', ') } : { title: '', items: [] }) as never}
        timeZone={timeZone}
        protect
        aria-label={t('pages.track.edit')}
      >
        <TextInput name="title" label={t('resources.achievement_track.fields.title')} required />
        <TextArea name="description" label={t('resources.achievement_track.fields.description')} />
        <TextInput name="tags" label={t('resources.achievement_track.fields.tags')} hint={t('cgs.tags_hint')} />
        <CheckboxInput name="is_public" label={t('resources.achievement_track.fields.is_public')} />
        <ListField
          name="items"
          label={t('resources.achievement_track.fields.items')}
          addLabel={t('achievement.add_item')}
          newItem={{ kind: 'task_model', id: taskModels[0]?.id ?? '' }}
        >
          {(item) => <TrackItemFields name={item} choices={{ task_model: taskModels, lesson: lessons, survey: surveys }} />}
        </ListField>
      </KitForm>
      {progress ? <TrackRooms data={progress} can={can} /> : null}
    </>
  )
}

function TrackItemFields({ name, choices: byKind }: { name: string; choices: Record<string, Choice[]> }) {
  const { t } = useTranslation()
  const [kind] = useField<string>(`${name}.kind`)
  const current = String(kind.value ?? kind.initialValue ?? 'task_model')
  const choices = byKind[current] ?? []
  return (
    <div className="form-row">
      <SelectInput
        name={`${name}.kind`}
        label={t('achievement.field.item_kind')}
        options={TRACK_ITEM_KINDS.map((k) => ({ value: k, label: t(`achievement.item_kind.${k}`) }))}
      />
      <SelectInput key={current} name={`${name}.id`} label={t('achievement.field.item')} options={choices.map((c) => ({ value: c.id, label: c.title }))} />
    </div>
  )
}
