import { useFetcher, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FileUpload } from '~/components/ui/file-upload'
import { LESSON_LANGUAGES } from '#shared/schemas/lesson/content'
import type { LessonSourceFrom, LessonSourceOption } from '#shared/schemas/lesson/genesis'

/** A lesson chosen as a source: a lesson model or a published lesson of the realm. */
export interface ChosenLesson {
  id: string
  title: string
  from: LessonSourceFrom
}

/** The sources of a generation as typed on a screen: title, content language, text, an uploaded file, a web address, a lesson. */
export function useGenesisSources() {
  const [title, setTitle] = useState('')
  const [language, setLanguage] = useState('pt-BR')
  const [text, setText] = useState('')
  const [url, setUrl] = useState('')
  const [file, setFile] = useState<{ id: string; name: string } | null>(null)
  const [lesson, setLesson] = useState<ChosenLesson | null>(null)
  const sources = useMemo(
    (): Record<string, string>[] => [
      ...(text.trim() ? [{ kind: 'text', text }] : []),
      ...(file ? [{ kind: 'file', file_id: file.id }] : []),
      ...(url.trim() ? [{ kind: 'url', url: url.trim() }] : []),
      ...(lesson ? [{ kind: 'lesson', lesson_id: lesson.id, from: lesson.from }] : []),
    ],
    [text, file, url, lesson],
  )
  return { title, setTitle, language, setLanguage, text, setText, url, setUrl, file, setFile, lesson, setLesson, sources }
}

/** Extensions the generation reads from an upload (the reader handles PDF, PPTX and TXT). */
export const SOURCE_FILE_TYPES = ['pdf', 'pptx', 'txt']

/** The sources fieldset of the generation screens (lesson and task model). */
export function GenesisSources({ s, lessons }: { s: ReturnType<typeof useGenesisSources>; lessons: Record<LessonSourceFrom, boolean> }) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <fieldset>
      <legend>{t('genesis.sources')}</legend>
      <label htmlFor={`${id}-title`}>{t('genesis.title')}</label>
      <input id={`${id}-title`} value={s.title} maxLength={200} onChange={(e) => s.setTitle(e.target.value)} />
      <label htmlFor={`${id}-language`}>{t('genesis.language')}</label>
      <select id={`${id}-language`} value={s.language} onChange={(e) => s.setLanguage(e.target.value)}>
        {LESSON_LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-text`}>{t('genesis.text')}</label>
      <textarea id={`${id}-text`} rows={8} value={s.text} onChange={(e) => s.setText(e.target.value)} />
      <FileUpload
        label={t('genesis.file')}
        hint={t('genesis.file_hint')}
        options={{ accept: SOURCE_FILE_TYPES }}
        onUploaded={(f) => s.setFile({ id: f.id, name: f.name })}
      />
      {s.file && <p>{t('genesis.file_ready', { name: s.file.name })}</p>}
      <label htmlFor={`${id}-url`}>{t('genesis.url')}</label>
      <input id={`${id}-url`} type="url" inputMode="url" value={s.url} maxLength={2000} onChange={(e) => s.setUrl(e.target.value)} />
      {(lessons.model || lessons.lesson) && <LessonSourcePicker s={s} readable={lessons} />}
    </fieldset>
  )
}

type LessonsAnswer = { ok: true; lessons: LessonSourceOption[] } | { ok: false; errors: unknown[] }

/**
 * An existing lesson as a source: the realm's lesson models or published lessons the user may read (the server checks
 * it again), searched by title as the user types (the latest ten without a search), one of them chosen.
 */
function LessonSourcePicker({ s, readable }: { s: ReturnType<typeof useGenesisSources>; readable: Record<LessonSourceFrom, boolean> }) {
  const { t } = useTranslation()
  const id = useId()
  const fetcher = useFetcher<LessonsAnswer>()
  const [from, setFrom] = useState<LessonSourceFrom>(readable.model ? 'model' : 'lesson')
  const [like, setLike] = useState('')
  const { submit } = fetcher
  useEffect(() => {
    const timer = setTimeout(() => submit({ intent: 'lessons', query: { from, like } }, { method: 'post', encType: 'application/json' }), like ? 250 : 0)
    return () => clearTimeout(timer)
  }, [from, like, submit])
  const answer = fetcher.data
  const found = answer?.ok ? answer.lessons : []
  const loading = fetcher.state !== 'idle' || !answer
  return (
    <fieldset className="lesson-source">
      <legend>{t('genesis.lesson_source')}</legend>
      {s.lesson ? (
        <p role="status">
          {t('genesis.lesson_chosen', { title: s.lesson.title })}{' '}
          <button type="button" className="btn" onClick={() => s.setLesson(null)}>
            {t('genesis.lesson_remove')}
          </button>
        </p>
      ) : (
        <>
          {readable.model && readable.lesson && (
            <>
              <label htmlFor={`${id}-from`}>{t('genesis.lesson_from')}</label>
              <select id={`${id}-from`} value={from} onChange={(e) => setFrom(e.target.value as LessonSourceFrom)}>
                <option value="model">{t('genesis.lesson_from_model')}</option>
                <option value="lesson">{t('genesis.lesson_from_lesson')}</option>
              </select>
            </>
          )}
          <label htmlFor={`${id}-like`}>{t('genesis.lesson_search')}</label>
          <input id={`${id}-like`} type="search" value={like} maxLength={200} aria-controls={`${id}-found`} onChange={(e) => setLike(e.target.value)} />
          <div id={`${id}-found`} aria-live="polite" aria-busy={loading}>
            {answer && !answer.ok ? (
              <p className="error">{t('genesis.lesson_search_failed')}</p>
            ) : loading && !found.length ? (
              <p className="muted">{t('genesis.lesson_searching')}</p>
            ) : !found.length ? (
              <p className="muted">{t('genesis.lesson_none')}</p>
            ) : (
              <ul className="lesson-source-list" aria-label={t('genesis.lesson_found')}>
                {found.map((l) => (
                  <li key={l.id}>
                    <span>
                      {l.title} <span className="muted">({l.language})</span>
                    </span>{' '}
                    <button type="button" className="btn" onClick={() => s.setLesson({ id: l.id, title: l.title, from })}>
                      {t('genesis.lesson_use')}
                      <span className="visually-hidden">: {l.title}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </fieldset>
  )
}

/**
 * The generation routes' revalidation: a lesson search or a step of a running job changes nothing their loader
 * reads, so it is not reloaded then (a job that ended, a start or a cancel reload it: the recent jobs change).
 */
export const genesisShouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  const r = actionResult as { lessons?: unknown; job?: { status?: string } } | undefined
  if (r?.lessons) return false
  if (r?.job?.status === 'running') return false
  return defaultShouldRevalidate
}
