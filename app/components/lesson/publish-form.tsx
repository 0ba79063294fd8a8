import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LocalDateTimeInput } from '~/components/form/local-date-time'
import { BusyButton } from '~/components/ui/busy-button'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useDraft } from '~/lib/use-unsaved-changes'
import { isoToZoned, zonedToIso } from '~/lib/zoned-time'
import type { ErrorItem } from '#shared/schemas/error'
import { LessonPublishInput } from '#shared/schemas/lesson/lesson'
import { PUBLICATION_TYPES, type PublicationType } from '#shared/schemas/tms/constants'

/** A publication being changed (a published survey, issue 19): its targets and dates as stored (ISO instants). */
export interface PublicationInitial {
  publication_type: PublicationType
  rooms: string[]
  members: { room: string; nick: string }[]
  groups: string[]
  publish_at: string
  expire_at: string | null
}

export interface LessonPublishOptions {
  rooms: { id: string; name: string; members: { nick: string; name: string }[] }[]
  groups: { id: string; name: string; rooms: string[] }[]
}

/**
 * Publication of a lesson model (issue 18, like a task's): to rooms, room members or room groups, from a date (now
 * by default) and until an optional end, in the realm's time zone. Runs the API's schema live.
 */
export function LessonPublishForm({
  modelId,
  options,
  timeZone,
  texts = { failed: 'lesson.publish.failed', hint: 'lesson.editor.expire_hint' },
  resettable = false,
  initial,
  submit = { label: 'lesson.publish.submit' },
  notice,
}: {
  modelId: string
  options: LessonPublishOptions
  timeZone: string
  /** Translation keys of the failure toast and the end-date hint (surveys publish with this form too, issue 19). */
  texts?: { failed: string; hint: string }
  /** Shows "reset to defaults" (seed 001 §4: survey drafts can be reset to defaults); with `initial`, "undo changes". */
  resettable?: boolean
  /**
   * Changes a publication instead of making one: the form starts from it, and only the dates that were changed are
   * sent (a stored start with seconds stays as it is).
   */
  initial?: PublicationInitial
  /** The submit button's text key and the form's `intent` (sent beside `publication`). */
  submit?: { label: string; intent?: string }
  /** Shown above the targets (e.g. which changes are allowed). */
  notice?: string
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const id = useId()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'lesson-publish' })
  const defaults = () =>
    initial
      ? {
          ...initial,
          publish_at: isoToZoned(initial.publish_at, timeZone),
          expire_at: initial.expire_at ? isoToZoned(initial.expire_at, timeZone) : '',
        }
      : {
          publication_type: 'all' as PublicationType,
          rooms: [] as string[],
          members: [] as { room: string; nick: string }[],
          groups: [] as string[],
          publish_at: isoToZoned(new Date().toISOString(), timeZone),
          expire_at: '',
        }
  const [start] = useState(defaults)
  const saving = fetcher.state !== 'idle'
  const { state, setState, set, setDirty, tried, setTried, guard } = useDraft(defaults, saving)
  const body = useMemo(
    () => ({
      ...state,
      model_id: modelId,
      // A change sends only the dates that moved (undefined leaves the JSON).
      publish_at:
        initial && state.publish_at === start.publish_at
          ? undefined
          : state.publish_at
            ? (zonedToIso(state.publish_at, timeZone) ?? state.publish_at)
            : undefined,
      expire_at:
        initial && state.expire_at === start.expire_at ? undefined : state.expire_at ? (zonedToIso(state.expire_at, timeZone) ?? state.expire_at) : null,
    }),
    [state, modelId, timeZone, initial, start],
  )
  const live = useMemo(() => liveErrors(LessonPublishInput, body), [body])
  const server = fetcher.data?.errors ?? []
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length) toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: texts.failed })
  }, [fetcher.state, fetcher.data, toast, t, texts.failed])
  const err = (field: string) => {
    if (tried && live[field]) return ruleText(t, live[field])
    const item = server.find((e) => e.field === field)
    return item ? errorText(t, item) : null
  }
  const toggle = <T,>(xs: T[], x: T, on: boolean, same: (a: T, b: T) => boolean = (a, b) => a === b) => (on ? [...xs, x] : xs.filter((y) => !same(x, y)))
  const targetField = { all: 'rooms', members: 'members', group: 'groups' }[state.publication_type]

  return (
    <form
      className="card publish-form"
      onSubmit={(e) => {
        e.preventDefault()
        setTried(true)
        if (Object.keys(live).length) return
        fetcher.submit({ publication: JSON.stringify(body), ...(submit.intent ? { intent: submit.intent } : {}) }, { method: 'post' })
      }}
    >
      {notice ? <p className="hint">{notice}</p> : null}
      <fieldset className="option-list inline">
        <legend>{t('resources.tms_task.fields.publication_type')}</legend>
        {PUBLICATION_TYPES.map((p) => (
          <label key={p} className="switch">
            <input type="radio" name="publication_type" checked={state.publication_type === p} onChange={() => set({ publication_type: p })} />{' '}
            {t(`tms.publication.${p}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="option-list">
        <legend>{t(`lesson.publish.targets_${state.publication_type}`)}</legend>
        {state.publication_type === 'group'
          ? options.groups.map((g) => (
              <label key={g.id} className="switch">
                <input
                  type="checkbox"
                  checked={state.groups.includes(g.id)}
                  onChange={(e) => set({ groups: toggle(state.groups, g.id, e.currentTarget.checked) })}
                />{' '}
                {g.name}
              </label>
            ))
          : options.rooms.map((r) =>
              state.publication_type === 'all' ? (
                <label key={r.id} className="switch">
                  <input
                    type="checkbox"
                    checked={state.rooms.includes(r.id)}
                    onChange={(e) => set({ rooms: toggle(state.rooms, r.id, e.currentTarget.checked) })}
                  />{' '}
                  {r.name}
                </label>
              ) : (
                <fieldset key={r.id} className="option-list">
                  <legend>{r.name}</legend>
                  {r.members.map((m) => (
                    <label key={m.nick} className="switch">
                      <input
                        type="checkbox"
                        checked={state.members.some((x) => x.room === r.id && x.nick === m.nick)}
                        onChange={(e) =>
                          set({
                            members: toggle(
                              state.members,
                              { room: r.id, nick: m.nick },
                              e.currentTarget.checked,
                              (a, b) => a.room === b.room && a.nick === b.nick,
                            ),
                          })
                        }
                      />{' '}
                      {m.name || m.nick}
                    </label>
                  ))}
                </fieldset>
              ),
            )}
        {(state.publication_type === 'group' ? options.groups : options.rooms).length === 0 ? <p className="hint">{t('lesson.publish.no_targets')}</p> : null}
        {err(targetField) ? (
          <p className="error" role="alert">
            {err(targetField)}
          </p>
        ) : null}
      </fieldset>
      <div className="field-row">
        {(['publish_at', 'expire_at'] as const).map((k) => (
          <div key={k} className="field">
            <label htmlFor={`${id}-${k}`}>{t(`resources.tms_task.fields.${k}`)}</label>
            <LocalDateTimeInput id={`${id}-${k}`} value={state[k]} onChange={(value) => set({ [k]: value })} />
            {err(k) ? <p className="error">{err(k)}</p> : null}
          </div>
        ))}
      </div>
      <p className="hint">{t(texts.hint)}</p>
      <div className="form-actions">
        {resettable ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setState(defaults())
              setDirty(false)
              setTried(false)
            }}
          >
            <Icon name="restore" /> {t(initial ? 'survey.edit.undo' : 'survey.publish.reset')}
          </button>
        ) : null}
        <BusyButton busy={saving} icon={initial ? 'check' : 'send'}>
          {t(submit.label)}
        </BusyButton>
      </div>
      {guard}
    </form>
  )
}
