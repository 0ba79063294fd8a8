import { useFetcher, useParams, useRevalidator } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { VOICE_FILE_EXTENSIONS } from '#shared/schemas/ai'
import { FileUpload } from '~/components/ui/file-upload'
import type { PersonaMediaData } from '~/routes/personai.media.$personaId'
import { PaidButton, errorText } from './paid-button'

type Answer = { ok: boolean; voice?: { code: string }; errors: { field: string; cause: string; message: string; value: unknown }[] }

/**
 * "Clone voice" (issue 16): the recording to clone is uploaded (wav, ogg, mp3), then cloned by the realm's provider
 * (ElevenLabs) after a confirmation that states the price; the cloned voice becomes the persona's voice code (custom)
 * and the editor reloads the persona. Without the provider it shows nothing (the custom voice's note says a provider
 * must be configured); on the create screen
 * (no persona yet) it asks to save first. The persona comes from the route (`:personaId`).
 */
export function VoiceClone() {
  const { t } = useTranslation()
  const { personaId } = useParams()
  const base = personaId ? `/personai/media/${encodeURIComponent(personaId)}` : null
  const info = useFetcher<PersonaMediaData>({ key: `persona-media-${personaId ?? ''}` })
  const run = useFetcher<Answer>()
  const revalidator = useRevalidator()
  const [file, setFile] = useState<{ id: string; name: string } | null>(null)
  const [name, setName] = useState('')
  useEffect(() => {
    if (base && info.state === 'idle' && !info.data) info.load(base)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per persona
  }, [base])
  useEffect(() => {
    if (run.state === 'idle' && run.data?.ok) revalidator.revalidate()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [run.state, run.data])

  if (!base)
    return (
      <p className="hint" role="note">
        {t('persona.media.clone.save_first')}
      </p>
    )
  const data = info.data
  if (!data)
    return (
      <p className="hint" role="status">
        {t('persona.media.loading')}
      </p>
    )
  if (data.state !== 'ok' || !data.canEdit) return null
  // Without the provider the custom voice's own note already says one must be configured.
  if (!data.voiceCloneReady) return null
  const price = data.prices.voice_clone ?? 0
  return (
    <fieldset className="fieldset" data-testid="voice-clone">
      <legend>{t('persona.media.clone.title')}</legend>
      <FileUpload
        label={t('persona.media.clone.upload')}
        options={{ accept: VOICE_FILE_EXTENSIONS.map((e) => e.slice(1)) }}
        onUploaded={(f) => setFile({ id: f.id, name: f.name })}
      />
      <div className="field">
        <label htmlFor="voice-clone-name">{t('persona.media.clone.name')}</label>
        <input id="voice-clone-name" className="input" maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      </div>
      <p className="hint">
        {data.prices.voice_clone === null ? t('persona.media.unpriced') : t('persona.media.price', { price })} {t('persona.media.clone.reload_note')}
      </p>
      {file ? null : <p className="hint">{t('persona.media.clone.choose_file')}</p>}
      <PaidButton
        label={t(run.state === 'idle' ? 'persona.media.clone.button' : 'persona.media.clone.pending')}
        message={t('persona.media.confirm.clone', { price })}
        price={price}
        disabled={!file || run.state !== 'idle'}
        onConfirm={(confirm) =>
          file && run.submit({ file_id: file.id, name, ...confirm }, { method: 'post', action: `${base}?intent=clone`, encType: 'application/json' })
        }
      />
      {run.state === 'idle' && run.data ? (
        run.data.ok ? (
          <p className="alert alert-success" role="status">
            {t('persona.media.clone.done', { code: run.data.voice?.code ?? '' })}
          </p>
        ) : (
          <p className="alert alert-error" role="alert">
            {errorText(t, run.data.errors)}
          </p>
        )
      ) : null}
    </fieldset>
  )
}
