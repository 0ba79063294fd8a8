import i18next from 'i18next'
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { initReactI18next, useTranslation } from 'react-i18next'
import { SlideEditor, deckForSave } from '~/components/slide-editor/slide-editor'
import { loadDeck } from '~/components/slide-editor/deck'
import { catalogues } from '~/i18n/catalogues'
import { i18nOptions } from '~/i18n/config'
import '~/styles/app.css'
import type { SlideDeck } from '#shared/schemas/lesson/slide'

/**
 * The browser test's page for the slide editor (tests/e2e/slide-editor.test.ts), built by Vite from the real
 * components: the editor as a screen mounts it (`value`, `onChange`), and a save that stores what `deckForSave`
 * answers in localStorage, the page reading it back on load — the lesson's store, until the lesson screens mount it.
 */
const STORE = 'slide-editor-test-deck'
/** The host screen's image assets (a lesson passes its own): one picture, inline so the page needs no server. */
const ASSETS = [
  {
    name: 'Quadrado vermelho',
    url: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#dc2626"/></svg>')}`,
  },
]

function Page() {
  const { t } = useTranslation()
  const [deck, setDeck] = useState<SlideDeck>(
    () => loadDeck(JSON.parse(localStorage.getItem(STORE) ?? 'null')) ?? [{ id: 'first', background: '#ffffff', objects: [], narration: '', overlay: 'none' }],
  )
  const [status, setStatus] = useState('')
  return (
    <main id="main" style={{ padding: '1rem' }}>
      <SlideEditor value={deck} onChange={setDeck} label="Aula de frações" assets={ASSETS} />
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => {
          const result = deckForSave(deck)
          if (!result.ok) return setStatus(t(`errors.${result.cause}`))
          localStorage.setItem(STORE, JSON.stringify(result.deck))
          setStatus('saved')
        }}
      >
        {t('settings.save', { defaultValue: 'Salvar' })}
      </button>
      <p role="status" data-testid="status">
        {status}
      </p>
      <pre data-testid="deck" hidden>
        {JSON.stringify(deck)}
      </pre>
    </main>
  )
}

void i18next
  .use(initReactI18next)
  .init({ ...i18nOptions, lng: 'pt-BR', resources: { 'pt-BR': { translation: catalogues['pt-BR'] } } })
  .then(() => createRoot(document.getElementById('root')!).render(<Page />))
