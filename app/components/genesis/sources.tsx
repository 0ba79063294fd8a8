import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FileUpload } from '~/components/ui/file-upload'
import { LESSON_LANGUAGES } from '#shared/schemas/lesson/content'

/** The sources of a generation as typed on a screen: title, content language, text, an uploaded file, a web address. */
export function useGenesisSources() {
  const [title, setTitle] = useState('')
  const [language, setLanguage] = useState('pt-BR')
  const [text, setText] = useState('')
  const [url, setUrl] = useState('')
  const [file, setFile] = useState<{ id: string; name: string } | null>(null)
  const sources = useMemo(
    (): Record<string, string>[] => [
      ...(text.trim() ? [{ kind: 'text', text }] : []),
      ...(file ? [{ kind: 'file', file_id: file.id }] : []),
      ...(url.trim() ? [{ kind: 'url', url: url.trim() }] : []),
    ],
    [text, file, url],
  )
  return { title, setTitle, language, setLanguage, text, setText, url, setUrl, file, setFile, sources }
}

/** The sources fieldset of the generation screens (lesson and task model). */
export function GenesisSources({ s }: { s: ReturnType<typeof useGenesisSources> }) {
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
        options={{ accept: ['pdf', 'txt'] }}
        onUploaded={(f) => s.setFile({ id: f.id, name: f.name })}
      />
      {s.file && <p>{t('genesis.file_ready', { name: s.file.name })}</p>}
      <label htmlFor={`${id}-url`}>{t('genesis.url')}</label>
      <input id={`${id}-url`} type="url" inputMode="url" value={s.url} maxLength={2000} onChange={(e) => s.setUrl(e.target.value)} />
    </fieldset>
  )
}
