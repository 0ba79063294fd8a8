import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ESSAY_ERROR_CATEGORIES } from '#shared/schemas/tms/constants'

/**
 * An error mark of an essay or written answer (the AI revision's, the teacher's, the essay checker's; seed 001 §3
 * error categories); `offset` places it when known (the checker's), otherwise the excerpt's first occurrence.
 */
export type RevisionError = { category: string; excerpt: string; explanation: string; offset?: number }

/** Scores in the page's language (8,5 in pt-BR and es-ES; 8.5 in en-US), at most two decimals. */
export function usePoints() {
  const { i18n } = useTranslation()
  return (v: number | null | undefined) => (typeof v === 'number' ? new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(v) : '—')
}

/** Colours of the essay error categories (seed 001 §3). */
const CATEGORY_COLOURS: Record<string, string> = Object.fromEntries(Object.entries(ESSAY_ERROR_CATEGORIES).map(([k, c]) => [k.toLowerCase(), c]))

/**
 * The student's text with the AI revision's marks: each error's excerpt (its first occurrence) underlined in its
 * category's colour, numbered, the category and explanation in its title and in the list under the text.
 */
export function MarkedText({ text, errors }: { text: string; errors: RevisionError[] }) {
  const { t } = useTranslation()
  const marks: { start: number; end: number; n: number; e: RevisionError }[] = []
  errors.forEach((e, n) => {
    const start = e.offset !== undefined && text.startsWith(e.excerpt, e.offset) ? e.offset : text.indexOf(e.excerpt)
    if (start < 0 || !e.excerpt) return
    const end = start + e.excerpt.length
    if (marks.some((m) => start < m.end && end > m.start)) return
    marks.push({ start, end, n: n + 1, e })
  })
  marks.sort((a, b) => a.start - b.start)
  const parts: ReactNode[] = []
  let at = 0
  for (const m of marks) {
    parts.push(text.slice(at, m.start))
    parts.push(
      <mark
        key={m.n}
        className="error-mark"
        style={{ textDecorationColor: CATEGORY_COLOURS[m.e.category], borderBottomColor: CATEGORY_COLOURS[m.e.category] }}
        title={`${t(`correct.category.${m.e.category}`)}: ${m.e.explanation}`}
      >
        {text.slice(m.start, m.end)}
        <sup>{m.n}</sup>
      </mark>,
    )
    at = m.end
  }
  parts.push(text.slice(at))
  return (
    <>
      <p className="answer-text">{parts}</p>
      {errors.length ? (
        <ol className="error-list" aria-label={t('correct.ai.errors')}>
          {errors.map((e, i) => (
            <li key={i}>
              <span className="error-swatch" style={{ background: CATEGORY_COLOURS[e.category] }} aria-hidden="true" />
              <strong>{t(`correct.category.${e.category}`)}</strong> “{e.excerpt}” — {e.explanation}
            </li>
          ))}
        </ol>
      ) : null}
    </>
  )
}

/** The files of a media or essay-photo answer, as links opening in a new tab (nothing without files). */
export function AnswerFiles({ files }: { files?: string[] }) {
  if (!files?.length) return null
  return (
    <ul>
      {files.map((f) => (
        <li key={f}>
          <a href={f} target="_blank" rel="noreferrer">
            {f.split('/').pop()}
          </a>
        </li>
      ))}
    </ul>
  )
}
