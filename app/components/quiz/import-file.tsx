import { useField, useFormMetadata } from '@conform-to/react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** The most a question file may weigh: the import's `content` limit (`QuizImportInput`). */
const MAX_BYTES = 1_000_000

/** CSV or JSON, by the file's name or type, else by its text (a JSON import is an array). */
export function importFormat(name: string, type: string, text: string): 'csv' | 'json' {
  if (/\.json$/i.test(name) || type === 'application/json') return 'json'
  if (/\.csv$/i.test(name) || type === 'text/csv') return 'csv'
  return text.trimStart().startsWith('[') ? 'json' : 'csv'
}

/**
 * A file picker inside the question import's form (issue 14): the chosen CSV or JSON file's text goes into the form's
 * `content` and its kind into `format`, so the moderator sees what will be imported and the API's errors by line
 * point at the text on screen. The file itself is never posted (the input has no name).
 */
export function ImportFilePicker() {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const id = useId()
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null)
  const input = useRef<HTMLInputElement>(null)
  // The form emptied (the import succeeded and reset it): the chosen file and its note are gone too.
  const [content] = useField<string>('content')
  useEffect(() => {
    if (content.value) return
    if (input.current) input.current.value = ''
    setNote((n) => (n?.error ? n : null))
  }, [content.value])
  return (
    <div className="field">
      <label htmlFor={id}>{t('resources.quiz.import_file')}</label>
      <input
        id={id}
        ref={input}
        type="file"
        accept=".csv,.json,text/csv,application/json"
        aria-describedby={note ? `${id}-note` : undefined}
        onChange={async (e) => {
          const input = e.currentTarget
          const file = input.files?.[0]
          if (!file) return
          if (file.size > MAX_BYTES) {
            input.value = ''
            setNote({ error: true, text: t('resources.quiz.import_file_large') })
            return
          }
          try {
            const text = await file.text()
            form.update({ name: 'format', value: importFormat(file.name, file.type, text) })
            form.update({ name: 'content', value: text })
            setNote({ error: false, text: t('resources.quiz.import_file_loaded', { name: file.name }) })
          } catch {
            setNote({ error: true, text: t('resources.quiz.import_file_error') })
          }
        }}
      />
      {note ? (
        <p id={`${id}-note`} role={note.error ? 'alert' : 'status'} className={note.error ? 'error' : 'hint'}>
          {note.text}
        </p>
      ) : null}
    </div>
  )
}
