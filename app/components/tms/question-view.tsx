import { useTranslation } from 'react-i18next'
import { parsePhrase, wordsOf } from '#shared/schemas/tms/phrase'
import type { QuestionInput } from '#shared/schemas/tms/question'
import { MediaView } from './media-view'
import { RichText } from './rich-text'

/** A stable shuffle (the same order on the server and in the browser, per question). */
export function shuffled<T>(items: T[], seed: string): T[] {
  let h = 2166136261
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619)
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0
    const j = h % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

type Q = QuestionInput & { id?: string }
const letter = (i: number) => String.fromCharCode(65 + i)

/**
 * One question as the student sees it (seed 001 §3 types), or with its resolution: correct options marked, the
 * expected answers and the comment. Inputs work locally; nothing is sent.
 */
export function QuestionView({ q, index, resolution = false }: { q: Q; index: number | null; resolution?: boolean }) {
  const { t } = useTranslation()
  const key = q.id ?? `q${index ?? 0}`
  const o = (q.options ?? {}) as Record<string, unknown>
  const order = <T,>(items: T[]) => (q.shuffle && !resolution ? shuffled(items, key) : items)

  if (q.type === 'section') {
    return (
      <section className="question question-section" aria-label={t('tms.type.section')}>
        <RichText html={q.statement} className="section-title" />
      </section>
    )
  }
  const body = () => {
    switch (q.type) {
      case 'single':
      case 'true_false':
      case 'multi': {
        const opts = order(
          ((q.options ?? []) as { statement: string; answer?: boolean; media_type?: string; media_url?: string; id?: string }[]).map((x, i) => ({ ...x, i })),
        )
        return (
          // A group of choices, not a list: a <ul> given the radiogroup role stops being a list, and its <li> items are
          // then list items outside any list (axe `listitem`).
          <div className="choice-list" role={q.type === 'multi' ? 'group' : 'radiogroup'} aria-label={t('tms.view.options')}>
            {opts.map((x, n) => (
              <div key={x.id ?? x.i} className={resolution && x.answer ? 'choice correct' : 'choice'}>
                <label>
                  <input
                    type={q.type === 'multi' ? 'checkbox' : 'radio'}
                    name={`answer-${key}`}
                    defaultChecked={resolution && x.answer}
                    disabled={resolution}
                  />
                  <span className="choice-letter">{letter(n)}</span>
                  <RichText html={x.statement} className="inline" />
                  {resolution && x.answer ? <span className="badge badge-success">{t('tms.view.correct')}</span> : null}
                </label>
                <MediaView type={x.media_type ?? ''} url={x.media_url ?? ''} />
              </div>
            ))}
          </div>
        )
      }
      case 'text':
      case 'text_ai':
      case 'essay': {
        const min = Number(o.min_text_count ?? o.min_word_count ?? 0)
        const max = Number(o.max_text_count ?? o.max_word_count ?? 0)
        const unit = q.type === 'essay' ? t(`tms.unit.${String(o.text_count_unit ?? 'word')}`) : t('tms.unit.character')
        return (
          <>
            {q.type === 'essay' && typeof o.support_text === 'string' && o.support_text ? <RichText html={o.support_text} className="support-text" /> : null}
            <label className="visually-hidden" htmlFor={`answer-${key}`}>
              {t('tms.view.answer')}
            </label>
            <textarea id={`answer-${key}`} className="input" rows={q.type === 'essay' ? 10 : 4} disabled={resolution} />
            <p className="hint">{t('tms.view.count', { min: String(min), max: String(max), unit })}</p>
          </>
        )
      }
      case 'fill_letters': {
        const answer = String(o.answer ?? '')
        return (
          <div className="letters" role="group" aria-label={String(o.question || t('tms.view.answer'))}>
            {o.question ? <p>{String(o.question)}</p> : null}
            {[...answer].map((ch, i) => (
              <input
                key={i}
                className="input letter"
                maxLength={1}
                aria-label={t('tms.view.letter', { n: String(i + 1) })}
                defaultValue={resolution ? ch : ''}
                disabled={resolution}
              />
            ))}
          </div>
        )
      }
      case 'fill_words': {
        const items = parsePhrase(String(o.sentence ?? ''))
        const choices = order([...items.filter((i) => i.type === 'select').map((i) => i.value), ...((o.incorrect as string[]) ?? [])])
        let gap = 0
        return (
          <p className="fill-words">
            {items.map((item, i) =>
              item.type === 'text' ? (
                <span key={i}>{item.value}</span>
              ) : resolution ? (
                <mark key={i}>{item.value}</mark>
              ) : (
                <select key={i} className="input gap" aria-label={t('tms.view.gap', { n: String(++gap) })} defaultValue="">
                  <option value="">…</option>
                  {choices.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              ),
            )}
          </p>
        )
      }
      case 'cloud': {
        const words = [...wordsOf(String(o.phrase ?? '')), ...((o.extra as string[]) ?? [])]
        return resolution ? (
          <p className="cloud-answer">{String(o.phrase ?? '')}</p>
        ) : (
          <ul className="word-cloud" aria-label={t('tms.view.cloud')}>
            {order(words).map((w, i) => (
              <li key={i}>
                <button type="button" className="chip">
                  {w}
                </button>
              </li>
            ))}
          </ul>
        )
      }
      case 'order_sentences': {
        const sentences = [...((o.sentences as string[]) ?? []), ...(resolution ? [] : ((o.incorrect as string[]) ?? []))]
        return (
          <ol className="order-list">
            {(resolution ? sentences : shuffled(sentences, key)).map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
        )
      }
      case 'media':
        return (
          <label className="field">
            <span>{t('tms.view.send_media', { kinds: ((o.accept as string[]) ?? []).map((k) => t(`tms.answer_media.${k}`)).join(', ') })}</span>
            <input type="file" className="input" disabled={resolution} />
          </label>
        )
      case 'game':
        return (
          <a className="btn" href={String(o.url ?? '')} target="_blank" rel="noopener noreferrer nofollow">
            {t('tms.view.open_game')}
          </a>
        )
      case 'info':
        return null
      default: {
        // Each type of question-types.ts has its view here: a new type fails the type check until it has one.
        const unhandled: never = q
        return unhandled
      }
    }
  }
  return (
    <article className={`question question-${q.type}`} aria-labelledby={`statement-${key}`}>
      <header className="question-header">
        {index !== null ? <span className="question-number">{index + 1}</span> : null}
        <RichText html={q.statement} id={`statement-${key}`} className="statement" />
        {q.type !== 'info' && q.type !== 'text_ai' ? <span className="badge">{t('tms.view.points', { count: Number(q.score ?? 0) })}</span> : null}
        {q.required ? <span className="badge">{t('tms.view.required')}</span> : null}
      </header>
      <MediaView type={q.media_type ?? ''} url={q.media_url ?? ''} />
      {body()}
      {resolution && q.comment ? (
        <aside className="resolution" aria-label={t('tms.view.resolution')}>
          <strong>{t('tms.view.resolution')}</strong>
          <RichText html={q.comment} />
        </aside>
      ) : null}
    </article>
  )
}
