import { useTranslation } from '~/i18n/react'
import { MODEL_FLAGS, MODEL_KINDS } from '#shared/schemas/tms/constants'
import { NumberField, SelectField, TextField } from './question-options'

export interface ModelMeta {
  title: string
  kind: string
  description: string
  tags: string[]
  categories: string[]
  style: { background_color: string }
  min_execution_time: number
  max_execution_time: number
  token: boolean
  audio_question: boolean
  essay_transcription: boolean
  verify_answers: boolean
  disable_answer_review: boolean
  auto_draft: boolean
}

export interface CategoryOption {
  id: string
  name: string
  parent_id: string | null
  required: boolean
  selectable: boolean
  enabled: boolean
}

/** The model's own fields (seed 001 §3): title, type, description, tags, categories, style, times and flags. */
export function ModelFields({
  meta,
  set,
  err,
  categories,
}: {
  meta: ModelMeta
  set: (patch: Partial<ModelMeta>, field: string) => void
  err: (field: string) => string | null
  categories: CategoryOption[]
}) {
  const { t } = useTranslation()
  const groups = categories.filter((c) => !c.parent_id)
  const choosable = (c: CategoryOption) => c.enabled && c.selectable
  const toggle = (id: string, on: boolean) => set({ categories: on ? [...meta.categories, id] : meta.categories.filter((x) => x !== id) }, 'categories')
  return (
    <section className="card" aria-labelledby="model-fields-title">
      <h2 id="model-fields-title">{t('tms.editor.model')}</h2>
      <div className="field-row">
        <TextField label={t('resources.tms_model.fields.title')} value={meta.title} onChange={(v) => set({ title: v }, 'title')} error={err('title')} />
        <SelectField
          label={t('resources.tms_model.fields.kind')}
          value={meta.kind}
          options={MODEL_KINDS.map((k) => [k, t(`tms.kind.${k}`)])}
          onChange={(v) => set({ kind: v }, 'kind')}
        />
      </div>
      <TextField
        label={t('resources.tms_model.fields.description')}
        value={meta.description}
        onChange={(v) => set({ description: v }, 'description')}
        error={err('description')}
        multiline
      />
      <TextField
        label={t('resources.tms_model.fields.tags')}
        value={meta.tags.join(', ')}
        hint={t('tms.editor.tags_hint')}
        onChange={(v) =>
          set(
            {
              tags: v
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            },
            'tags',
          )
        }
        error={err('tags')}
      />
      {categories.length ? (
        <fieldset className="category-picker">
          <legend>{t('resources.tms_model.fields.categories')}</legend>
          {groups.map((g) => {
            const values = categories.filter((c) => c.parent_id === g.id && choosable(c))
            return (
              <div key={g.id} className="category-group">
                {values.length ? (
                  <span className="field-label">
                    {g.name} {g.required ? <span className="badge">{t('tms.editor.required_category')}</span> : null}
                  </span>
                ) : (
                  choosable(g) && (
                    <label className="switch">
                      <input type="checkbox" checked={meta.categories.includes(g.id)} onChange={(e) => toggle(g.id, e.currentTarget.checked)} /> {g.name}
                    </label>
                  )
                )}
                {values.map((c) => (
                  <label key={c.id} className="switch">
                    <input type="checkbox" checked={meta.categories.includes(c.id)} onChange={(e) => toggle(c.id, e.currentTarget.checked)} /> {c.name}
                  </label>
                ))}
              </div>
            )
          })}
          {err('categories') ? <p className="error">{err('categories')}</p> : null}
        </fieldset>
      ) : null}
      <div className="field-row">
        <div className="field">
          <label htmlFor="model-colour">{t('resources.tms_model.fields.style')}</label>
          <input
            id="model-colour"
            className="input"
            type="color"
            value={meta.style.background_color || '#ffffff'}
            onChange={(e) => set({ style: { background_color: e.currentTarget.value } }, 'style')}
          />
          {meta.style.background_color ? (
            <button type="button" className="btn btn-link" onClick={() => set({ style: { background_color: '' } }, 'style')}>
              {t('tms.editor.no_colour')}
            </button>
          ) : null}
        </div>
        <NumberField
          label={t('resources.tms_model.fields.min_execution_time')}
          value={meta.min_execution_time}
          onChange={(v) => set({ min_execution_time: v }, 'min_execution_time')}
          error={err('min_execution_time')}
        />
        <NumberField
          label={t('resources.tms_model.fields.max_execution_time')}
          value={meta.max_execution_time}
          onChange={(v) => set({ max_execution_time: v }, 'max_execution_time')}
          error={err('max_execution_time')}
        />
      </div>
      <fieldset className="option-list inline">
        <legend>{t('tms.editor.flags')}</legend>
        {(['token', ...MODEL_FLAGS] as const).map((flag) => (
          <label key={flag} className="switch">
            <input type="checkbox" checked={meta[flag]} onChange={(e) => set({ [flag]: e.currentTarget.checked }, flag)} />{' '}
            {t(`resources.tms_model.fields.${flag}`)}
          </label>
        ))}
      </fieldset>
    </section>
  )
}
