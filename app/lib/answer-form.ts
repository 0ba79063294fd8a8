import type { AnswerValue } from '../../worker/lib/answer-schemas'

/**
 * The form's answers as the API's: `q.option.<id>` an option id, `q.options.<id>` several, `q.text.<id>` a text
 * (empty: unanswered), `q.words.<id>` repeated in order (fill words one per gap, empty gaps kept in place; cloud and
 * order sentences the built sequence; all empty: unanswered), `q.files.<id>` repeated in order (media answers, an essay's
 * photographed pages; kept beside the essay's text).
 */
export function formAnswers(form: FormData): Record<string, AnswerValue> {
  const answers: Record<string, AnswerValue> = {}
  for (const [key, value] of form.entries()) {
    const m = /^q\.(option|options|text|words|files)\.(.+)$/.exec(key)
    if (!m || typeof value !== 'string') continue
    const [, kind, id] = m
    if (kind === 'option') answers[id] = { option: value }
    else if (kind === 'options') answers[id] = { options: [...(answers[id]?.options ?? []), value] }
    else if (kind === 'words') answers[id] = { words: [...(answers[id]?.words ?? []), value] }
    else if (kind === 'files') answers[id] = { ...answers[id], files: [...(answers[id]?.files ?? []), value] }
    else if (value.trim()) answers[id] = { ...answers[id], text: value }
  }
  for (const [id, a] of Object.entries(answers)) if (a.words && !a.words.some((w) => w.trim())) delete answers[id]
  return answers
}
