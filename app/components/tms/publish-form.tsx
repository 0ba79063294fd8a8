import { useFetcher } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LocalDateTimeInput } from '~/components/form/local-date-time'
import * as v from 'valibot'
import { BusyButton } from '~/components/ui/busy-button'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useDraft } from '~/lib/use-unsaved-changes'
import { isoToZoned, zonedToIso } from '~/lib/zoned-time'
import type { ErrorItem } from '#shared/schemas/error'
import { categoryChoiceProblems } from '#shared/schemas/tms/category'
import { PUBLICATION_TYPES, type PublicationType, type QuestionType } from '#shared/schemas/tms/constants'
import { PublishInput, publicationProblems } from '#shared/schemas/tms/task'

export interface PublishOptions {
  model: { id: string; title: string; token: boolean; min_execution_time: number; categories: string[]; question_types: string[] }
  rooms: { id: string; name: string; members: { nick: string; name: string }[] }[]
  groups: { id: string; name: string; rooms: string[] }[]
  categories: { id: string; name: string; parent_id: string | null; required: boolean; multi_selection: boolean; selectable: boolean; enabled: boolean }[]
  limits: { defaultDeadlineDays: number; maxScheduleDays: number; expireOffsetDays: number }
  /** The realm's active extra fields of tasks (absent: none). */
  extra?: { key: string; label: string; required: boolean }[]
}

const DAY = 86_400_000

/**
 * Publication of a model as a task (seed 001 §3, §5): to rooms, room members or room groups, with its dates in the
 * realm's time zone, timer, scheduling and categories. The form runs the API's own schema and publication rules live.
 */
export function PublishForm({ options, timeZone }: { options: PublishOptions; timeZone: string }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'publish' })
  const { model, limits } = options
  const extraFields = useMemo(() => options.extra ?? [], [options.extra])
  const [opened] = useState(() => Date.now())
  const saving = fetcher.state !== 'idle'
  const { state, set, dirty, tried, setTried, guard } = useDraft(
    () => ({
      publication_type: 'all' as PublicationType,
      rooms: [] as string[],
      members: [] as { room: string; nick: string }[],
      groups: [] as string[],
      publish_at: isoToZoned(new Date(opened).toISOString(), timeZone),
      // Default deadline for digital materials (3 days unless the realm says otherwise) plus the realm's expire offset.
      expire_at: isoToZoned(new Date(opened + (limits.defaultDeadlineDays + limits.expireOffsetDays) * DAY).toISOString(), timeZone),
      display_answer_at: '',
      correct_at: '',
      show_timer: false,
      scheduling_enabled: true,
      categories: model.categories,
      extra: Object.fromEntries(extraFields.map((f) => [f.key, ''])) as Record<string, string>,
    }),
    saving,
  )

  const body = useMemo(() => {
    const at = (s: string) => (s ? (zonedToIso(s, timeZone) ?? s) : null)
    return {
      ...state,
      model_id: model.id,
      publish_at: at(state.publish_at) ?? undefined,
      expire_at: at(state.expire_at) ?? undefined,
      display_answer_at: at(state.display_answer_at),
      correct_at: at(state.correct_at),
    }
  }, [state, model.id, timeZone])
  const problems = useMemo(() => {
    const out = liveErrors(PublishInput, body)
    const parsed = v.safeParse(PublishInput, body)
    if (parsed.success && parsed.output.publish_at && parsed.output.expire_at) {
      const p = { ...parsed.output, publish_at: parsed.output.publish_at, expire_at: parsed.output.expire_at }
      const ctx = {
        now: Date.now(),
        maxScheduleDays: limits.maxScheduleDays,
        model: { ...model, question_types: model.question_types as QuestionType[] },
        categories: options.categories,
      }
      for (const x of publicationProblems(p, ctx)) out[x.field] ??= x.message
      for (const x of categoryChoiceProblems(p.categories, options.categories)) out.categories ??= x.message
    }
    for (const f of extraFields) if (f.required && !state.extra[f.key]?.trim()) out[`extra.${f.key}`] ??= 'validation.required'
    return out
  }, [body, limits, model, options.categories, extraFields, state.extra])
  const server = fetcher.data?.errors ?? []
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length) toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'tms.publish.failed' })
  }, [fetcher.state, fetcher.data, toast, t])
  const err = (field: string) => {
    if ((tried || dirty) && problems[field]) return ruleText(t, problems[field])
    const item = server.find((e) => e.field === field)
    return item ? errorText(t, item) : null
  }
  const toggle = <T,>(list: T[], item: T, on: boolean, same: (a: T, b: T) => boolean) => (on ? [...list, item] : list.filter((x) => !same(x, item)))

  function submit() {
    setTried(true)
    if (Object.keys(problems).length) return
    fetcher.submit({ publication: JSON.stringify(body) }, { method: 'post' })
  }

  return (
    <div className="publish-form">
      <section className="card" aria-labelledby="targets-title">
        <h2 id="targets-title">{t('tms.publish.targets')}</h2>
        <fieldset className="option-list inline">
          <legend>{t('resources.tms_task.fields.publication_type')}</legend>
          {PUBLICATION_TYPES.map((p) => (
            <label key={p} className="switch">
              <input
                type="radio"
                name="publication_type"
                checked={state.publication_type === p}
                disabled={p === 'members' && model.token}
                onChange={() => set({ publication_type: p })}
              />{' '}
              {t(`tms.publication.${p}`)}
            </label>
          ))}
        </fieldset>
        {model.token ? <p className="hint">{t('validation.tms.members_token')}</p> : null}
        {err('publication_type') ? <p className="error">{err('publication_type')}</p> : null}
        {state.publication_type === 'all' ? (
          <fieldset className="option-list">
            <legend>{t('tms.publish.rooms')}</legend>
            {options.rooms.length === 0 ? <p className="hint">{t('tms.publish.no_rooms')}</p> : null}
            {options.rooms.map((r) => (
              <label key={r.id} className="switch">
                <input
                  type="checkbox"
                  checked={state.rooms.includes(r.id)}
                  onChange={(e) => set({ rooms: toggle(state.rooms, r.id, e.currentTarget.checked, (a, b) => a === b) })}
                />{' '}
                {r.name}
                <span className="hint"> · {t('tms.publish.member_count', { count: r.members.length })}</span>
              </label>
            ))}
            {err('rooms') ? <p className="error">{err('rooms')}</p> : null}
          </fieldset>
        ) : null}
        {state.publication_type === 'members' ? (
          <div>
            {options.rooms.map((r) => (
              <fieldset key={r.id} className="option-list">
                <legend>{r.name}</legend>
                {r.members.length === 0 ? <p className="hint">{t('room.members.empty')}</p> : null}
                {r.members.map((m) => {
                  const target = { room: r.id, nick: m.nick }
                  return (
                    <label key={m.nick} className="switch">
                      <input
                        type="checkbox"
                        checked={state.members.some((x) => x.room === r.id && x.nick === m.nick)}
                        onChange={(e) =>
                          set({ members: toggle(state.members, target, e.currentTarget.checked, (a, b) => a.room === b.room && a.nick === b.nick) })
                        }
                      />{' '}
                      {m.name || m.nick}
                    </label>
                  )
                })}
              </fieldset>
            ))}
            {err('members') ? <p className="error">{err('members')}</p> : null}
          </div>
        ) : null}
        {state.publication_type === 'group' ? (
          <fieldset className="option-list">
            <legend>{t('tms.publish.groups')}</legend>
            {options.groups.length === 0 ? <p className="hint">{t('tms.publish.no_groups')}</p> : null}
            {options.groups.map((g) => (
              <label key={g.id} className="switch">
                <input
                  type="checkbox"
                  checked={state.groups.includes(g.id)}
                  onChange={(e) => set({ groups: toggle(state.groups, g.id, e.currentTarget.checked, (a, b) => a === b) })}
                />{' '}
                {g.name}
                <span className="hint"> · {g.rooms.map((id) => options.rooms.find((r) => r.id === id)?.name ?? id).join(', ')}</span>
              </label>
            ))}
            {err('groups') ? <p className="error">{err('groups')}</p> : null}
          </fieldset>
        ) : null}
      </section>
      <section className="card" aria-labelledby="dates-title">
        <h2 id="dates-title">{t('tms.publish.dates')}</h2>
        <p className="hint">{t('tms.publish.time_zone', { zone: timeZone, days: String(limits.defaultDeadlineDays + limits.expireOffsetDays) })}</p>
        <div className="field-row">
          {(['publish_at', 'expire_at', 'display_answer_at', 'correct_at'] as const).map((f) => (
            <div key={f} className="field">
              <label htmlFor={`publish-${f}`}>{t(`resources.tms_task.fields.${f}`)}</label>
              <LocalDateTimeInput
                id={`publish-${f}`}
                value={state[f]}
                onChange={(value) => set({ [f]: value })}
                aria-invalid={err(f) ? true : undefined}
                aria-describedby={err(f) ? `publish-${f}-error` : undefined}
              />
              {err(f) ? (
                <p className="error" id={`publish-${f}-error`}>
                  {err(f)}
                </p>
              ) : null}
            </div>
          ))}
        </div>
        <label className="switch">
          <input type="checkbox" checked={state.show_timer} onChange={(e) => set({ show_timer: e.currentTarget.checked })} />{' '}
          {t('resources.tms_task.fields.show_timer')}
        </label>
        <label className="switch">
          <input type="checkbox" checked={state.scheduling_enabled} onChange={(e) => set({ scheduling_enabled: e.currentTarget.checked })} />{' '}
          {t('resources.tms_task.fields.scheduling_enabled')}
        </label>
        {state.scheduling_enabled ? null : <p className="hint">{t('tms.publish.paused_hint')}</p>}
      </section>
      {options.categories.length ? (
        <section className="card" aria-labelledby="task-categories-title">
          <h2 id="task-categories-title">{t('resources.tms_model.fields.categories')}</h2>
          {options.categories
            .filter((c) => !c.parent_id)
            .map((g) => (
              <fieldset key={g.id} className="option-list inline">
                <legend>
                  {g.name} {g.required ? <span className="badge">{t('tms.editor.required_category')}</span> : null}
                </legend>
                {[g, ...options.categories.filter((c) => c.parent_id === g.id)]
                  .filter((c) => c.selectable && c.enabled)
                  .map((c) => (
                    <label key={c.id} className="switch">
                      <input
                        type="checkbox"
                        checked={state.categories.includes(c.id)}
                        onChange={(e) => set({ categories: toggle(state.categories, c.id, e.currentTarget.checked, (a, b) => a === b) })}
                      />{' '}
                      {c.name}
                    </label>
                  ))}
              </fieldset>
            ))}
          {err('categories') ? <p className="error">{err('categories')}</p> : null}
        </section>
      ) : null}
      {extraFields.length ? (
        <section className="card" aria-labelledby="task-extra-title">
          <h2 id="task-extra-title">{t('tms.publish.extra')}</h2>
          <div className="field-row">
            {extraFields.map((f) => {
              const name = `extra.${f.key}`
              return (
                <div key={f.key} className="field">
                  <label htmlFor={`publish-extra-${f.key}`}>
                    {f.label} {f.required ? <span className="badge">{t('tms.publish.extra_required')}</span> : null}
                  </label>
                  <input
                    id={`publish-extra-${f.key}`}
                    className="input"
                    value={state.extra[f.key] ?? ''}
                    onChange={(e) => set({ extra: { ...state.extra, [f.key]: e.currentTarget.value } })}
                    aria-invalid={err(name) ? true : undefined}
                    aria-describedby={err(name) ? `publish-extra-${f.key}-error` : undefined}
                  />
                  {err(name) ? (
                    <p className="error" id={`publish-extra-${f.key}-error`}>
                      {err(name)}
                    </p>
                  ) : null}
                </div>
              )
            })}
          </div>
        </section>
      ) : null}
      {err('model_id') ? (
        <p className="alert alert-error" role="alert">
          {err('model_id')}
        </p>
      ) : null}
      <div className="form-actions">
        <BusyButton busy={saving} icon="send" onClick={submit}>
          {t('tms.publish.submit')}
        </BusyButton>
      </div>
      {guard}
    </div>
  )
}
