import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PERSONA_ANIMATION_KINDS, type PersonaAnimation, type PersonaAnimationKind } from '#shared/schemas/persona-media'
import type { PersonaMediaData } from '~/routes/personai.media.$personaId'
import { PaidButton, errorText } from './paid-button'
import { usePaidMedia } from './use-paid-media'

/** How often the editor reads a pending animation again (each read asks the provider about it). */
export const ANIMATION_POLL_MS = 5000

type Answer = { ok: boolean; errors: { field: string; cause: string; message: string; value: unknown }[] }

/**
 * The persona's generated animations (issue 16): per kind its state (not generated, generating, ready with its
 * video, failed and refunded) and "Generate animation", confirmed with the price from the realm's price list before
 * the paid call. Without an animation provider it says one must be configured (the browser animates the image).
 * Data and calls go through the resource route `/personai/media/{personaId}`.
 */
export function PersonaAnimations({ personaId }: { personaId: string }) {
  const { t } = useTranslation()
  const base = `/personai/media/${encodeURIComponent(personaId)}`
  const { list, run } = usePaidMedia<PersonaMediaData, Answer>(
    `persona-media-${personaId}`,
    base,
    (d) => d.items.some((a) => a.status === 'pending'),
    ANIMATION_POLL_MS,
  )
  const [talkText, setTalkText] = useState('')
  const data = list.data

  if (!data)
    return (
      <p className="hint" role="status">
        {t('persona.media.loading')}
      </p>
    )
  if (data.state !== 'ok') return null
  const price = data.prices.animation ?? 0
  const byKind = new Map<PersonaAnimationKind, PersonaAnimation>(data.items.map((a) => [a.kind, a]))
  const busy = run.state !== 'idle'
  return (
    <div className="persona-media" data-testid="persona-animations">
      <h3>{t('persona.media.generated')}</h3>
      <p className="hint" role="note">
        {data.provider
          ? data.prices.animation === null
            ? t('persona.media.unpriced')
            : t('persona.media.price', { price: data.prices.animation })
          : t('persona.media.needs_provider_animation')}
      </p>
      {data.provider && data.canEdit ? (
        <div className="field">
          <label htmlFor={`talk-text-${personaId}`}>{t('persona.media.talk_text', { kind: t('persona.editor.animation.talk') })}</label>
          <input id={`talk-text-${personaId}`} className="input" maxLength={1000} value={talkText} onChange={(e) => setTalkText(e.currentTarget.value)} />
        </div>
      ) : null}
      <ul className="plain-list">
        {PERSONA_ANIMATION_KINDS.map((kind) => {
          const a = byKind.get(kind)
          const name = t(`persona.editor.animation.${kind}`)
          return (
            <li key={kind} className="persona-media-row">
              <strong>{name}</strong>: <span aria-live="polite">{t(`persona.media.status.${a?.status ?? 'none'}`)}</span>
              {a?.status === 'done' && a.url ? (
                <>
                  {' '}
                  <a href={a.url} target="_blank" rel="noreferrer">
                    {t('persona.media.watch')}
                  </a>
                </>
              ) : null}{' '}
              {data.provider && data.canEdit ? (
                <PaidButton
                  label={t(a ? 'persona.media.regenerate_kind' : 'persona.media.generate_kind', { kind: name })}
                  message={t('persona.media.confirm.animation', { kind: name, price })}
                  price={price}
                  disabled={busy || a?.status === 'pending'}
                  onConfirm={(confirm) =>
                    run.submit(
                      { kind, ...confirm, text: kind === 'talk' ? talkText : '' },
                      { method: 'post', action: `${base}?intent=animation`, encType: 'application/json' },
                    )
                  }
                />
              ) : null}
            </li>
          )
        })}
      </ul>
      {run.state === 'idle' && run.data && !run.data.ok ? (
        <p className="alert alert-error" role="alert">
          {errorText(t, run.data.errors)}
        </p>
      ) : null}
    </div>
  )
}
