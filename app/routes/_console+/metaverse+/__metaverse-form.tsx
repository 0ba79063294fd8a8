import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxField, NumberField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { MetaverseRoomCreate, MetaverseRoomUpdate, type MetaverseRoom } from '#shared/schemas/metaverse'

type Values = Pick<MetaverseRoom, 'name' | 'description' | 'host' | 'scene_url' | 'capacity' | 'enabled'>

/** A metaverse room: name, description, the metaverse server's host, scene address, capacity, enabled. */
export function MetaverseForm({ room }: { room: MetaverseRoom | null }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'metaverse-form' })
  const initial: Values = room ?? { name: '', description: '', host: '', scene_url: '', capacity: 50, enabled: true }
  const [values, setValues] = useState<Values>(initial)
  const body = room ? changedValues(initial, values) : values
  const form = useLiveValidation(room ? MetaverseRoomUpdate : MetaverseRoomCreate, body, fetcher.data?.errors)
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(!saving && Object.keys(changedValues(initial, values)).length > 0)
  const set =
    <K extends keyof Values>(k: K) =>
    (v: Values[K]) =>
      setValues((x) => ({ ...x, [k]: v }))
  const common = (k: keyof Values) => ({ label: t(`resources.metaverse_room.fields.${k}`), error: form.errorOf(k), onBlur: () => form.touch(k) })
  return (
    <form
      className="card narrow-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (form.attempt()) fetcher.submit(jsonBody(body), { method: 'post', encType: 'application/json' })
      }}
    >
      <TextField {...common('name')} value={values.name} onChange={set('name')} required />
      <TextField {...common('description')} value={values.description} onChange={set('description')} />
      <TextField {...common('host')} value={values.host} onChange={set('host')} hint={t('resources.metaverse_room.hints.host')} autoComplete="off" />
      <TextField {...common('scene_url')} value={values.scene_url} onChange={set('scene_url')} hint={t('resources.realm.hints.url')} />
      <NumberField {...common('capacity')} value={values.capacity} onChange={set('capacity')} min={1} max={10000} />
      <CheckboxField {...common('enabled')} value={values.enabled} onChange={set('enabled')} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving || (room !== null && Object.keys(body).length === 0)}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('resources.metaverse_room.save')}
        </button>
      </div>
      {guard}
    </form>
  )
}
