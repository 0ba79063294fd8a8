import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { URL_ANSWER_TYPES, type DialogAnswer } from '#shared/schemas/persona'
import type { PersonaChatMessage, PersonaFace } from '#shared/schemas/persona-chat'
import { Icon } from '~/components/ui/icon'
import { canRecognise, microphoneErrorKey, recognitionErrorKey, speak } from '~/lib/speech'
import { usePersonaChat } from './use-persona-chat'

/**
 * The public chat with a persona (issue 16 "The public chat"): the greeting, typed and spoken questions, the answer
 * streamed as the persona writes it and spoken with the browser's voice (seed 002 §3 `talking`: the persona's image
 * moves subtly while it speaks), mute, options that lead to dialogs, the call for a human, and the sources of every
 * knowledge answer. Every microphone and speech-recognition error of seed 002 §8 is shown with its message.
 */

type Recognition = {
  lang: string
  interimResults: boolean
  maxAlternatives: number
  start(): void
  abort(): void
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null
  onerror: ((e: { error: string }) => void) | null
  onend: (() => void) | null
}

const isUrlAnswer = (a: DialogAnswer) => (URL_ANSWER_TYPES as readonly string[]).includes(a.type) && a.url

export function PersonaChat({ personaId, initial, signinSlot }: { personaId: string; initial: PersonaFace; signinSlot: React.ReactNode }) {
  const { t, i18n } = useTranslation()
  // The visitor chats in the interface language (the page's language menu): the persona answers in it.
  const language = i18n.language
  const [muted, setMuted] = useState(false)
  const [talking, setTalking] = useState(false)
  const [pulse, setPulse] = useState(0)
  const [text, setText] = useState('')
  const [listening, setListening] = useState(false)
  const [speechError, setSpeechError] = useState<string | null>(null)
  const mutedRef = useRef(muted)
  mutedRef.current = muted
  const recognition = useRef<Recognition | null>(null)

  const onAnswer = useCallback(
    (m: PersonaChatMessage) => {
      if (mutedRef.current || !m.text) return
      setTalking(true)
      // Some browsers never end an utterance they could not speak: the animation stops after the words' time anyway.
      const guard = setTimeout(() => setTalking(false), 3000 + m.text.length * 120)
      void speak(m.text, { language, voice: initial.voice, onBoundary: () => setPulse((n) => n + 1) }).finally(() => {
        clearTimeout(guard)
        setTalking(false)
      })
    },
    [language, initial.voice],
  )
  const { view, ask, choose, callHelper, retry } = usePersonaChat(personaId, language, onAnswer)
  const persona = view.persona ?? initial
  const disabled = view.status !== 'open' || view.state?.disabled === true

  useEffect(() => {
    if (muted && typeof window !== 'undefined' && window.speechSynthesis) {
      window.speechSynthesis.cancel()
      setTalking(false)
    }
  }, [muted])

  const log = useRef<HTMLOListElement>(null)
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView?.({ block: 'end' })
  }, [view.messages.length, view.partial?.text])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const q = text.trim()
    if (!q || disabled) return
    ask(q)
    setText('')
  }

  const listen = async () => {
    setSpeechError(null)
    if (listening) {
      recognition.current?.abort()
      return
    }
    if (!canRecognise()) return setSpeechError('speech.error.unsupported')
    try {
      // The microphone first: its errors (not found, not readable, permission denied) are the seed's own messages.
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true })
      for (const track of stream.getTracks()) track.stop()
    } catch (err) {
      return setSpeechError(microphoneErrorKey(err))
    }
    const w = window as unknown as Record<string, new () => Recognition>
    const r = new (w.SpeechRecognition ?? w.webkitSpeechRecognition)()
    r.lang = language
    r.interimResults = false
    r.maxAlternatives = 1
    r.onresult = (e) => {
      const said = e.results[0]?.[0]?.transcript?.trim()
      if (said) ask(said)
    }
    r.onerror = (e) => setSpeechError(recognitionErrorKey(e.error))
    r.onend = () => setListening(false)
    recognition.current = r
    setListening(true)
    r.start()
  }

  const status = view.status
  return (
    <div className="pchat">
      <header className="pchat-head">
        <div className={`pchat-face${talking ? ' is-talking' : ''}`} data-pulse={pulse % 2} aria-hidden="true">
          {persona.image_url ? <img src={persona.image_url} alt="" /> : <span className="pchat-initial">{persona.name.slice(0, 1)}</span>}
          <span className="pchat-mouth" />
        </div>
        <div className="pchat-who">
          <h1>{persona.name}</h1>
          {persona.bio ? <p className="pchat-bio">{persona.bio}</p> : null}
          <p className="pchat-status" role="status">
            {talking ? t('persona.chat.talking') : view.state?.answering ? t('persona.chat.answering') : ''}
          </p>
        </div>
        <div className="pchat-tools">
          <button type="button" className="btn" aria-pressed={muted} onClick={() => setMuted((m) => !m)}>
            <Icon name={muted ? 'volumeOff' : 'volume'} /> {muted ? t('persona.chat.unmute') : t('persona.chat.mute')}
          </button>
        </div>
      </header>

      {status === 'loading' ? (
        <p className="pchat-state" role="status">
          {t('persona.chat.loading')}
        </p>
      ) : null}
      {status === 'reconnecting' ? (
        <p className="pchat-state notice" role="status">
          {t('persona.chat.reconnecting')}
        </p>
      ) : null}
      {status === 'signin' ? (
        <div className="pchat-blocked">
          <p role="alert">{t('persona.chat.login_required')}</p>
          {signinSlot}
        </div>
      ) : null}
      {status === 'refused' ? (
        <p className="pchat-state error" role="alert">
          {t(`persona.chat.cause.${view.cause ?? 'unavailable'}`)}
        </p>
      ) : null}
      {status === 'error' ? (
        <div className="pchat-state error" role="alert">
          <p>{t('persona.chat.error')}</p>
          <button type="button" className="btn" onClick={retry}>
            <Icon name="refresh" /> {t('persona.chat.retry')}
          </button>
        </div>
      ) : null}

      {status === 'open' || status === 'reconnecting' ? (
        <>
          <div className="pchat-log" role="log" aria-live="polite" aria-label={t('persona.chat.log', { name: persona.name })}>
            <ol className="pchat-list" ref={log}>
              {view.messages.map((m) => (
                <MessageItem key={m.seq} m={m} name={persona.name} disabled={disabled} onChoose={choose} />
              ))}
              {view.partial ? (
                <li className="pchat-msg persona" aria-busy="true">
                  <span className="pchat-author">{persona.name}</span>
                  <p className="pchat-text">{view.partial.text || t('persona.chat.answering')}</p>
                </li>
              ) : null}
            </ol>
          </div>
          {view.notice ? (
            <p className="pchat-state error" role="alert">
              {t(`persona.chat.cause.${view.notice}`)}
            </p>
          ) : null}
          {speechError ? (
            <p className="pchat-state error" role="alert">
              {t(speechError)}
            </p>
          ) : null}
          <form className="pchat-ask" onSubmit={submit}>
            <label htmlFor="pchat-question" className="visually-hidden">
              {t('persona.chat.question')}
            </label>
            <input
              id="pchat-question"
              value={text}
              maxLength={500}
              autoComplete="off"
              placeholder={t('persona.chat.placeholder')}
              onChange={(e) => setText(e.target.value)}
              lang={i18n.language}
            />
            <button
              type="button"
              className={`btn${listening ? ' is-on' : ''}`}
              aria-pressed={listening}
              aria-label={listening ? t('persona.chat.stop_listening') : t('persona.chat.speak')}
              onClick={() => void listen()}
              disabled={disabled}
            >
              <Icon name="mic" />
            </button>
            <button type="submit" className="btn btn-primary" disabled={disabled || !text.trim()}>
              <Icon name="send" /> {t('persona.chat.send')}
            </button>
          </form>
          {persona.helper ? (
            <button type="button" className="btn pchat-helper" onClick={callHelper} disabled={disabled}>
              <Icon name="person" /> {t('persona.chat.call_helper')}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  )
}

function MessageItem({
  m,
  name,
  disabled,
  onChoose,
}: {
  m: PersonaChatMessage
  name: string
  disabled: boolean
  onChoose: (text: string, dialogId: string) => void
}) {
  const { t } = useTranslation()
  if (m.role === 'visitor')
    return (
      <li className="pchat-msg visitor">
        <span className="pchat-author">{t('persona.chat.you')}</span>
        <p className="pchat-text">{m.kind === 'helper' ? t('persona.chat.helper_asked') : m.text}</p>
      </li>
    )
  const links = m.answers.filter(isUrlAnswer)
  const options = m.answers.flatMap((a) => (a.type === 'options' ? a.options.filter((o) => !o.deleted && o.dialog_id) : []))
  return (
    <li className={`pchat-msg persona kind-${m.kind}`}>
      <span className="pchat-author">{name}</span>
      {m.text ? <p className="pchat-text">{m.text}</p> : null}
      {links.length ? (
        <ul className="pchat-links">
          {links.map((a, i) => (
            <li key={i}>
              <a href={a.url} target="_blank" rel="noopener noreferrer">
                <Icon name="external" /> {t(`persona.chat.answer_type.${a.type}`)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {options.length ? (
        <div className="pchat-options" role="group" aria-label={t('persona.chat.options')}>
          {options.map((o, i) => (
            <button key={i} type="button" className="btn" disabled={disabled} onClick={() => onChoose(o.text, o.dialog_id!)}>
              {o.text}
            </button>
          ))}
        </div>
      ) : null}
      {m.sources.length ? (
        <details className="pchat-sources">
          <summary>{t('persona.chat.sources', { count: m.sources.length })}</summary>
          <ol>
            {m.sources.map((s) => (
              <li key={s.id}>
                <strong>{s.title}</strong>: “{s.quote}”
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {m.kind === 'knowledge' && m.engine === 'local' ? <p className="pchat-note">{t('persona.chat.local_engine')}</p> : null}
    </li>
  )
}
