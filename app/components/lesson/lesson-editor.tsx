import { useFetcher } from '@remix-run/react'
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LocalDateTimeInput } from '~/components/form/local-date-time'
import { ConfirmDialog } from '~/components/ui/dialog'
import { BusyButton } from '~/components/ui/busy-button'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { RichTextEditor } from '~/components/tms/rich-text-editor'
import { NumberField, SelectField, TextField } from '~/components/tms/question-options'
import type { CategoryOption } from '~/components/tms/model-fields'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { liveErrors } from '~/lib/form-fields'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { isoToZoned, zonedToIso } from '~/lib/zoned-time'
import type { ErrorItem } from '#shared/schemas/error'
import { LESSON_LANGUAGES, LESSON_CONTENT_KINDS, CLASS_PLAN_MINUTES, wordCount, type LessonContentKind } from '#shared/schemas/lesson/content'
import { LessonInput, LESSON_CONTENT_FIELDS, type LessonDraft } from '#shared/schemas/lesson/lesson'
import type { SlideDeck } from '#shared/schemas/lesson/slide'
import { SlideEditor } from '~/components/slide-editor/slide-editor'
import type { LessonMediaData } from '~/routes/lesson.media.$lessonId'
import { LessonMedia } from './lesson-media'

export type LessonContent = Required<Pick<LessonDraft, (typeof LESSON_CONTENT_FIELDS)[number]>> & { class_plan: { html: string; duration: number } }

export interface LessonRefs {
  categories: CategoryOption[]
  taskModels: { id: string; title: string }[]
  assets: { id: string; name: string }[]
  personas: { id: string; name: string }[]
}

/** One empty deck for a lesson without slides, so the slide editor is not handed a new document on every render. */
const NO_SLIDES: SlideDeck = []
/** Lesson fields outside the content panels, with their dates when the lesson is a published one. */
export interface PublishedDates {
  publish_at: string
  expire_at: string | null
}

const content = (x: Record<string, unknown>) => Object.fromEntries(LESSON_CONTENT_FIELDS.map((f) => [f, x[f]])) as LessonContent

function CheckList({
  legend,
  items,
  chosen,
  onChange,
  empty,
}: {
  legend: string
  items: { id: string; label: string }[]
  chosen: string[]
  onChange: (ids: string[]) => void
  empty: string
}) {
  return (
    <fieldset className="option-list">
      <legend>{legend}</legend>
      {items.length === 0 ? <p className="hint">{empty}</p> : null}
      {items.map((x) => (
        <label key={x.id} className="switch">
          <input
            type="checkbox"
            checked={chosen.includes(x.id)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, x.id] : chosen.filter((id) => id !== x.id))}
          />{' '}
          {x.label}
        </label>
      ))}
    </fieldset>
  )
}

/**
 * The lesson editor (issue 18; seed 001 §3, §5): the lesson's fields and a panel per content kind (summary, class
 * plan, handout, slides, narratives, video, persona, tasks, question pairs), validated live with the API's schema;
 * leaving with unsaved changes asks first. Saves through the route's action (`intent=save`, `lesson` as JSON).
 */
export function LessonEditor({
  initial,
  refs,
  children,
  dates,
  mediaLessonId,
}: {
  initial: Record<string, unknown>
  refs: LessonRefs
  /** A saved lesson model's id: the narratives tab offers its narration audio and persona videos. */
  mediaLessonId?: string
  children?: ReactNode
  /** A published lesson's dates, edited in the realm's time zone (absent for a model). */
  dates?: PublishedDates & { timeZone: string }
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'lesson-editor' })
  const [draft, setDraft] = useState<LessonContent>(() => content(initial))
  const [tab, setTab] = useState<LessonContentKind>('summary')
  const [dirty, setDirty] = useState(false)
  const [tried, setTried] = useState(false)
  const [personaSwitch, setPersonaSwitch] = useState<string | null>(null)
  const [discardMedia, setDiscardMedia] = useState(false)
  // The media panel's data (same fetcher key): whether generated narration or videos exist (seed 001 §4).
  const mediaFetcher = useFetcher<LessonMediaData>({ key: `lesson-media-${mediaLessonId ?? ''}` })
  const media = mediaFetcher.data
  useEffect(() => {
    if (mediaLessonId) mediaFetcher.load(`/lesson/media/${encodeURIComponent(mediaLessonId)}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per lesson
  }, [mediaLessonId])
  const hasMedia = media?.state === 'ok' && media.slides.some((s) => s.audio || s.video)
  const [when, setWhen] = useState(() =>
    dates ? { publish_at: isoToZoned(dates.publish_at, dates.timeZone), expire_at: dates.expire_at ? isoToZoned(dates.expire_at, dates.timeZone) : '' } : null,
  )
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(dirty && !saving)
  const id = useId()
  const tabs = useRef<(HTMLButtonElement | null)[]>([])
  const deferred = useDeferredValue(draft)
  const live = useMemo(() => liveErrors(LessonInput, deferred), [deferred])
  const server = fetcher.data?.errors ?? []
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'lesson.editor.save_failed' })
  }, [fetcher.state, fetcher.data, toast, t])

  const set = (patch: Partial<LessonContent>) => {
    setDirty(true)
    setDraft((d) => ({ ...d, ...patch }))
  }
  const err = (path: string) => {
    const rule = Object.entries(live).find(([k]) => k === path || k.startsWith(`${path}.`))
    if (rule && tried) return ruleText(t, rule[1])
    const item = server.find((e) => e.field === path || e.field.startsWith(`${path}.`))
    return item ? errorText(t, item) : null
  }
  function save() {
    setTried(true)
    if (Object.keys(liveErrors(LessonInput, draft)).length) {
      toast.push({ kind: 'error', message: 'tms.editor.fix_errors' })
      return
    }
    const at =
      when && dates
        ? {
            publish_at: when.publish_at ? (zonedToIso(when.publish_at, dates.timeZone) ?? when.publish_at) : undefined,
            expire_at: when.expire_at ? (zonedToIso(when.expire_at, dates.timeZone) ?? when.expire_at) : null,
          }
        : {}
    fetcher.submit({ intent: 'save', lesson: JSON.stringify({ ...draft, ...at, ...(discardMedia ? { discard_media: true } : {}) }) }, { method: 'post' })
  }
  const choosePersona = (next: string) => {
    const value = next || null
    // Seed 001 §4: the persona is fixed while a video or generated narration exists; switching drops them, after a confirmation.
    if ((draft.video || (hasMedia && !discardMedia)) && value !== draft.persona_id) setPersonaSwitch(next)
    else set({ persona_id: value })
  }
  const onTabKey = (e: KeyboardEvent, i: number) => {
    const n = LESSON_CONTENT_KINDS.length
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1
    if (to < 0) return
    e.preventDefault()
    setTab(LESSON_CONTENT_KINDS[to])
    tabs.current[to]?.focus()
  }
  const slides = (draft.slides ?? NO_SLIDES) as SlideDeck
  const panelTitle = (k: LessonContentKind) => t(`lesson.kind.${k}`)

  const panels: Record<LessonContentKind, ReactNode> = {
    summary: <RichTextEditor label={t('lesson.kind.summary')} value={draft.summary ?? ''} onChange={(summary) => set({ summary })} error={err('summary')} />,
    class_plan: (
      <>
        <NumberField
          label={t('lesson.editor.duration', { min: CLASS_PLAN_MINUTES.min, max: CLASS_PLAN_MINUTES.max })}
          value={draft.class_plan.duration}
          onChange={(duration) => set({ class_plan: { ...draft.class_plan, duration } })}
          error={err('class_plan.duration')}
        />
        <RichTextEditor
          label={t('lesson.kind.class_plan')}
          value={draft.class_plan.html}
          onChange={(html) => set({ class_plan: { ...draft.class_plan, html } })}
          error={err('class_plan.html')}
        />
      </>
    ),
    handout: <RichTextEditor label={t('lesson.kind.handout')} value={draft.handout ?? ''} onChange={(handout) => set({ handout })} error={err('handout')} />,
    slide: (
      <>
        {err('slides') ? (
          <p className="error" role="alert">
            {err('slides')}
          </p>
        ) : null}
        <SlideEditor value={slides} onChange={(deck) => set({ slides: deck })} label={draft.title || t('lesson.kind.slide')} />
      </>
    ),
    narrative: slides.length ? (
      <>
        <ol className="narratives">
          {slides.map((s, i) => (
            <li key={s.id}>
              <TextField
                label={t('lesson.editor.narration_of', { n: String(i + 1), words: String(wordCount(s.narration)) })}
                value={s.narration}
                multiline
                onChange={(narration) => set({ slides: slides.map((x) => (x.id === s.id ? { ...x, narration } : x)) })}
                error={err(`slides.${i}.narration`)}
              />
            </li>
          ))}
        </ol>
        {mediaLessonId ? <LessonMedia lessonId={mediaLessonId} dirty={dirty} /> : null}
      </>
    ) : (
      <p className="empty card">{t('lesson.editor.narratives_need_slides')}</p>
    ),
    video: (
      <SelectField
        label={t('lesson.kind.video')}
        value={draft.video ?? ''}
        options={[['', t('lesson.editor.none')], ...refs.assets.map((a) => [a.id, a.name] as const)]}
        onChange={(v) => set({ video: v || null })}
        error={err('video')}
      />
    ),
    persona: (
      <>
        <SelectField
          label={t('lesson.kind.persona')}
          value={draft.persona_id ?? ''}
          options={[['', t('lesson.editor.none')], ...refs.personas.map((p) => [p.id, p.name] as const)]}
          onChange={choosePersona}
          error={err('persona_id')}
        />
        <p className="hint">{t('lesson.editor.persona_hint')}</p>
      </>
    ),
    task: (
      <CheckList
        legend={t('lesson.kind.task')}
        items={refs.taskModels.map((m) => ({ id: m.id, label: m.title }))}
        chosen={draft.tasks ?? []}
        onChange={(tasks) => set({ tasks })}
        empty={t('lesson.editor.no_task_models')}
      />
    ),
    question_pairs: (
      <>
        {(draft.question_pairs ?? []).length === 0 ? <p className="empty card">{t('lesson.editor.no_pairs')}</p> : null}
        <ol className="question-pairs">
          {(draft.question_pairs ?? []).map((p, i) => (
            <li key={i} className="card">
              <TextField
                label={t('lesson.editor.pair_question', { n: String(i + 1) })}
                value={p.question}
                onChange={(question) => set({ question_pairs: (draft.question_pairs ?? []).map((x, j) => (j === i ? { ...x, question } : x)) })}
                error={err(`question_pairs.${i}.question`)}
              />
              <TextField
                label={t('lesson.editor.pair_answer', { n: String(i + 1) })}
                value={p.answer}
                multiline
                onChange={(answer) => set({ question_pairs: (draft.question_pairs ?? []).map((x, j) => (j === i ? { ...x, answer } : x)) })}
                error={err(`question_pairs.${i}.answer`)}
              />
              <button type="button" className="btn" onClick={() => set({ question_pairs: (draft.question_pairs ?? []).filter((_, j) => j !== i) })}>
                <Icon name="trash" /> {t('lesson.editor.pair_remove', { n: String(i + 1) })}
              </button>
            </li>
          ))}
        </ol>
        <button type="button" className="btn" onClick={() => set({ question_pairs: [...(draft.question_pairs ?? []), { question: '', answer: '' }] })}>
          <Icon name="plus" /> {t('lesson.editor.pair_add')}
        </button>
      </>
    ),
  }

  return (
    <div className="lesson-editor">
      <section className="card" aria-labelledby={`${id}-fields`}>
        <h2 id={`${id}-fields`}>{t('lesson.editor.lesson')}</h2>
        <div className="field-row">
          <TextField label={t('resources.lesson.fields.title')} value={draft.title} onChange={(title) => set({ title })} error={err('title')} />
          <SelectField
            label={t('resources.lesson.fields.language')}
            value={draft.language ?? 'pt-BR'}
            options={LESSON_LANGUAGES.map((l) => [l, t(`lesson.language.${l}`)] as const)}
            onChange={(v) => set({ language: v as LessonContent['language'] })}
          />
        </div>
        <TextField
          label={t('resources.lesson.fields.description')}
          value={draft.description}
          multiline
          onChange={(description) => set({ description })}
          error={err('description')}
        />
        <TextField
          label={t('resources.lesson.fields.tags')}
          value={(draft.tags ?? []).join(', ')}
          hint={t('tms.editor.tags_hint')}
          onChange={(v) =>
            set({
              tags: v
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            })
          }
          error={err('tags')}
        />
        {refs.categories.length ? (
          <CheckList
            legend={t('resources.lesson.fields.categories')}
            items={refs.categories.filter((c) => c.enabled && c.selectable).map((c) => ({ id: c.id, label: c.name }))}
            chosen={draft.categories ?? []}
            onChange={(categories) => set({ categories })}
            empty=""
          />
        ) : null}
        {refs.assets.length ? (
          <CheckList
            legend={t('resources.lesson.fields.assets')}
            items={refs.assets.map((a) => ({ id: a.id, label: a.name }))}
            chosen={draft.assets ?? []}
            onChange={(assets) => set({ assets })}
            empty=""
          />
        ) : null}
        {err('categories') || err('assets') ? <p className="error">{err('categories') ?? err('assets')}</p> : null}
      </section>
      {when ? (
        <section className="card" aria-labelledby={`${id}-dates`}>
          <h2 id={`${id}-dates`}>{t('lesson.editor.publication')}</h2>
          <div className="field-row">
            {(['publish_at', 'expire_at'] as const).map((k) => (
              <div key={k} className="field">
                <label htmlFor={`${id}-${k}`}>{t(`resources.tms_task.fields.${k}`)}</label>
                <LocalDateTimeInput
                  id={`${id}-${k}`}
                  value={when[k]}
                  required={k === 'publish_at'}
                  onChange={(value) => {
                    setDirty(true)
                    setWhen((w) => w && { ...w, [k]: value })
                  }}
                />
                {err(k) ? <p className="error">{err(k)}</p> : null}
              </div>
            ))}
          </div>
          <p className="hint">{t('lesson.editor.expire_hint')}</p>
        </section>
      ) : null}
      {children}
      <div role="tablist" aria-label={t('lesson.editor.contents')} className="lesson-tabs">
        {LESSON_CONTENT_KINDS.map((k, i) => (
          <button
            key={k}
            ref={(el) => {
              tabs.current[i] = el
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${k}`}
            aria-selected={tab === k}
            aria-controls={`${id}-panel-${k}`}
            tabIndex={tab === k ? 0 : -1}
            className={`lesson-tab${tab === k ? ' active' : ''}${err(k === 'slide' ? 'slides' : k === 'task' ? 'tasks' : k === 'persona' ? 'persona_id' : k) ? ' invalid' : ''}`}
            onClick={() => setTab(k)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {panelTitle(k)}
          </button>
        ))}
      </div>
      {LESSON_CONTENT_KINDS.map((k) => (
        <section key={k} role="tabpanel" id={`${id}-panel-${k}`} aria-labelledby={`${id}-tab-${k}`} hidden={tab !== k} className="lesson-panel card">
          {tab === k ? panels[k] : null}
        </section>
      ))}
      <div className="form-actions sticky-actions">
        <BusyButton busy={saving} icon="check" onClick={save}>
          {t('tms.editor.save')}
        </BusyButton>
      </div>
      <ConfirmDialog
        open={personaSwitch !== null}
        title={t('lesson.editor.persona_switch_title')}
        message={t(hasMedia ? 'lesson.media.persona_switch_message' : 'lesson.editor.persona_switch_message')}
        confirmLabel={t(hasMedia ? 'lesson.media.persona_switch_yes' : 'lesson.editor.persona_switch_yes')}
        cancelLabel={t('settings.cancel')}
        danger
        onCancel={() => setPersonaSwitch(null)}
        onConfirm={() => {
          set({ persona_id: personaSwitch || null, video: null })
          if (hasMedia) setDiscardMedia(true)
          setPersonaSwitch(null)
        }}
      />
      {guard}
    </div>
  )
}
