/**
 * The sign-in screen's behaviour without React (issue 12: the sign-in page is served without hydrating React, whose
 * libraries alone weigh more than the page's budget). The screen (login-screen.tsx) is server-rendered markup whose
 * forms post to /login without any script; this module adds what needs one: the method tabs (panels kept in
 * `<template>`s), the TV-provider tab after 10 clicks on the logo, the password's show/hide toggle, the employee
 * form's state rule, the captcha widget (proof of work solved in a Web Worker, text and image challenges), Google's
 * popup, the token link's automatic sign-in, the language menu and the pending state of a submitted form.
 *
 * Every page that shows the screen (/login, the outbox, an OAuth2 request) loads it as one standalone module under the
 * page's nonce (signin-page.entry.ts) and is always a document, never a React render (app/lib/document-navigation.ts).
 * Texts come translated from the server (`data-texts`).
 */
import { solvePow } from '#shared/pow'
import { sessionKey } from '~/lib/session-key'
import type { CaptchaChallenge, CaptchaVerification } from '#shared/schemas/captcha'
import type { GoogleSigninMessage } from './google-button'
import spriteUrl from '../ui/icons.svg?no-inline'

/** Logo clicks that reveal the TV-provider tab (seed 000 §9; tabs.ts holds the same number for the server). */
const TV_PROVIDER_CLICKS = 10

type Texts = Record<string, string>

interface Screen {
  root: HTMLElement
  texts: Texts
  realm: string
  api: string
  locale: string
  /** The address forms post to (`/login` with the page's query, so a failed attempt renders the same screen). */
  action: string
  redirectTo: string
}

function text(s: Screen, key: string): string {
  return s.texts[key] ?? key
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  for (const child of children) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child)
  return node
}

/** An icon of the sprite, as the Icon component renders it (decorative). */
function icon(name: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg'
  const svg = document.createElementNS(ns, 'svg')
  for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', width: '20', height: '20', fill: 'currentColor', 'aria-hidden': 'true', focusable: 'false' })) {
    svg.setAttribute(k, v)
  }
  const use = document.createElementNS(ns, 'use')
  use.setAttribute('href', `${spriteUrl}#${name}`)
  svg.appendChild(use)
  return svg
}

function spinner(): HTMLSpanElement {
  return el('span', { class: 'spinner', 'aria-hidden': 'true' })
}

// ---------------------------------------------------------------------------------------------------------------
// Captcha (seed 000 §4)

type CaptchaState =
  | { step: 'loading' }
  | { step: 'solving'; progress: number }
  | { step: 'challenge'; challenge: CaptchaChallenge; message?: string }
  | { step: 'verifying'; challenge: CaptchaChallenge }
  | { step: 'verified'; token: string }
  | { step: 'error'; message: string }

async function captchaPost<T>(s: Screen, path: string, body: unknown): Promise<{ ok: boolean; data: T & { errors?: { cause: string }[] } }> {
  const res = await fetch(new URL(`captcha/${path}`, s.api), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-session-key': sessionKey() },
    body: JSON.stringify(body),
  })
  return { ok: res.ok, data: (await res.json().catch(() => ({}))) as T & { errors?: { cause: string }[] } }
}

/** Finds the proof-of-work nonce in a Web Worker (the page stays responsive); on the main thread where there is none. */
function solveInBackground(challenge: CaptchaChallenge, onProgress: (tried: number) => void, isCancelled: () => boolean): Promise<string | null> {
  const difficulty = challenge.data.difficulty ?? 0
  let worker: Worker | null = null
  try {
    worker = new Worker(new URL('../../workers/pow.worker.ts', import.meta.url), { type: 'module' })
  } catch {
    worker = null
  }
  if (!worker) return solvePow(challenge.challengeId, difficulty, onProgress, isCancelled)
  const w = worker
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (isCancelled()) {
        clearInterval(timer)
        w.terminate()
        resolve(null)
      }
    }, 250)
    w.onmessage = (e: MessageEvent<{ type: 'progress'; tried: number } | { type: 'done'; nonce: string | null }>) => {
      if (e.data.type === 'progress') return onProgress(e.data.tried)
      clearInterval(timer)
      w.terminate()
      resolve(e.data.nonce)
    }
    w.onerror = () => {
      clearInterval(timer)
      w.terminate()
      resolve(solvePow(challenge.challengeId, difficulty, onProgress, isCancelled))
    }
    w.postMessage({ challengeId: challenge.challengeId, difficulty })
  })
}

/**
 * Runs one captcha widget (`[data-captcha]`, server-rendered with its hidden inputs): proof of work starts at once
 * and is solved in the background with a progress bar; text and image challenges open on a click. Every challenge
 * serves once: a wrong answer fetches a new one. `onToken` reports the single-use token (null while unsolved). The
 * widget stops when it leaves the document (another tab chosen).
 */
function runCaptcha(s: Screen, widget: HTMLElement, onToken: (token: string | null) => void): void {
  const type = widget.dataset.captchaType || 'pow'
  const view = widget.querySelector<HTMLElement>('[data-captcha-view]')!
  const tokenInput = widget.querySelector<HTMLInputElement>('input[name="captcha_token"]')!
  widget.querySelector<HTMLInputElement>('input[name="session_key"]')!.value = sessionKey()
  const cancelled = () => !widget.isConnected
  const id = widget.id || 'captcha'

  function set(state: CaptchaState | { step: 'idle' }): void {
    widget.dataset.captchaState = state.step
    const busy = state.step === 'loading' || state.step === 'verifying' || state.step === 'solving'
    widget.setAttribute('aria-busy', String(busy))
    tokenInput.value = state.step === 'verified' ? state.token : ''
    onToken(state.step === 'verified' ? state.token : null)
    view.replaceChildren(...render(state, busy))
  }

  function render(state: CaptchaState | { step: 'idle' }, busy: boolean): Node[] {
    if (state.step === 'verified') return [el('p', { class: 'captcha-status captcha-ok', role: 'status' }, icon('check'), ` ${text(s, 'captcha.verified')}`)]
    if (state.step === 'solving' || (type === 'pow' && (state.step === 'loading' || state.step === 'verifying' || state.step === 'idle'))) {
      const progress = el('progress', { max: '100', 'aria-label': text(s, 'captcha.pow.progress') })
      if (state.step === 'solving') progress.value = state.progress
      return [el('div', { class: 'captcha-status', role: 'status' }, spinner(), ` ${text(s, 'captcha.pow.solving')}`, progress)]
    }
    if (state.step === 'error') {
      const retry = el('button', { type: 'button', class: 'btn btn-link' }, text(s, 'captcha.retry'))
      retry.addEventListener('click', () => void start())
      return [el('div', { class: 'captcha-status', role: 'alert' }, `${text(s, state.message)} `, retry)]
    }
    if (state.step === 'idle' || state.step === 'loading') {
      const button = el('button', { type: 'button', class: 'btn captcha-start' }, busy ? spinner() : icon('shield'), ` ${text(s, 'captcha.start')}`)
      button.disabled = busy
      button.addEventListener('click', () => void start())
      return [button]
    }
    return [challengePanel(state)]
  }

  function challengePanel(state: Extract<CaptchaState, { step: 'challenge' | 'verifying' }>): HTMLElement {
    const { challenge } = state
    const verifying = state.step === 'verifying'
    const prompt = el(
      'p',
      { id: `${id}-prompt`, class: 'captcha-prompt' },
      text(s, challenge.type === 'image' ? 'captcha.image.prompt' : 'captcha.text.prompt'),
    )
    const shown =
      challenge.type === 'image'
        ? el('img', {
            class: 'captcha-image',
            src: challenge.data.image ?? '',
            width: String(challenge.data.width ?? ''),
            height: String(challenge.data.height ?? ''),
            alt: text(s, 'captcha.image.alt'),
          })
        : el('p', { class: 'captcha-question' }, challenge.data.question ?? '')
    const answer = el('input', {
      id: `${id}-answer`,
      class: 'input',
      autocomplete: 'off',
      autocapitalize: challenge.type === 'image' ? 'characters' : 'none',
      inputmode: challenge.type === 'text' ? 'numeric' : 'text',
      maxlength: String(challenge.type === 'image' ? (challenge.data.length ?? 5) + 4 : 10),
      placeholder: text(s, 'captcha.answer'),
    })
    const confirm = el('button', { type: 'button', class: 'btn btn-primary' }, ...(verifying ? [spinner()] : []), text(s, 'captcha.confirm'))
    confirm.disabled = true
    answer.addEventListener('input', () => (confirm.disabled = !answer.value.trim() || verifying))
    answer.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return
      e.preventDefault()
      if (answer.value.trim() && !verifying) void verify(challenge, answer.value.trim())
    })
    confirm.addEventListener('click', () => void verify(challenge, answer.value.trim()))
    const refresh = el('button', { type: 'button', class: 'btn btn-link' }, text(s, 'captcha.refresh'))
    refresh.disabled = verifying
    refresh.addEventListener('click', () => void start())
    const panel = el('div', { class: 'captcha-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': `${id}-prompt` }, prompt, shown)
    if (state.step === 'challenge' && state.message) panel.appendChild(el('p', { class: 'error', role: 'alert' }, text(s, state.message)))
    panel.appendChild(
      el('div', { class: 'input-group' }, el('label', { for: `${id}-answer`, class: 'visually-hidden' }, text(s, 'captcha.answer')), answer, confirm),
    )
    panel.appendChild(refresh)
    return panel
  }

  async function verify(challenge: CaptchaChallenge, value: string): Promise<void> {
    set({ step: 'verifying', challenge })
    // The server decides the kind (the realm's); the answer goes back as the kind of challenge it answered.
    const payload = challenge.type === 'pow' ? { challengeId: challenge.challengeId, solution: value } : { challengeId: challenge.challengeId, answer: value }
    try {
      const res = await captchaPost<CaptchaVerification>(s, 'verify', { type: challenge.type, realm: s.realm, payload })
      if (cancelled()) return
      if (res.ok && res.data.valid && res.data.token) return set({ step: 'verified', token: res.data.token })
      const wrong = res.data.errors?.some((e) => e.cause === 'verification_failed')
      return start(wrong ? 'captcha.error.wrong' : 'captcha.error.verify')
    } catch {
      return start('captcha.error.verify')
    }
  }

  async function start(message?: string): Promise<void> {
    set({ step: 'loading' })
    let challenge: CaptchaChallenge
    try {
      const res = await captchaPost<CaptchaChallenge>(s, 'challenge', { realm: s.realm, type, lang: s.locale })
      if (!res.ok || !res.data.challengeId) throw new Error('challenge')
      challenge = res.data
    } catch {
      if (!cancelled()) set({ step: 'error', message: 'captcha.error.generate' })
      return
    }
    if (cancelled()) return
    if (challenge.type !== 'pow') return set({ step: 'challenge', challenge, message })
    const expected = 2 ** (challenge.data.difficulty ?? 0)
    set({ step: 'solving', progress: 0 })
    const nonce = await solveInBackground(
      challenge,
      (tried) => !cancelled() && set({ step: 'solving', progress: Math.min(99, Math.round(100 * (1 - Math.exp(-tried / expected)))) }),
      cancelled,
    )
    if (nonce === null || cancelled()) return
    await verify(challenge, nonce)
  }

  set({ step: 'idle' })
  // Proof of work needs no person: it starts as soon as the widget is shown (a new widget is a new challenge).
  if (type === 'pow') void start()
}

// ---------------------------------------------------------------------------------------------------------------
// Forms

/** The submit button of a form: disabled while its captcha is unsolved, "signing in…" once sent. */
function setSubmit(s: Screen, form: HTMLFormElement, state: { blocked?: boolean; pending?: boolean }): void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')
  if (!button) return
  if (state.blocked !== undefined) button.dataset.blocked = String(state.blocked)
  if (state.pending) {
    form.setAttribute('aria-busy', 'true')
    button.replaceChildren(spinner(), text(s, 'login.submitting'))
  }
  const disabled = button.dataset.blocked === 'true' || form.getAttribute('aria-busy') === 'true'
  button.disabled = disabled
  button.setAttribute('aria-disabled', String(disabled))
}

function wirePasswordToggles(s: Screen, scope: HTMLElement): void {
  for (const button of scope.querySelectorAll<HTMLButtonElement>('button[data-password-toggle]')) {
    const input = document.getElementById(button.getAttribute('aria-controls') ?? '') as HTMLInputElement | null
    if (!input) continue
    button.addEventListener('click', () => {
      const show = input.type === 'password'
      input.type = show ? 'text' : 'password'
      button.setAttribute('aria-pressed', String(show))
      const svg = button.querySelector('svg')
      svg?.setAttribute('aria-label', text(s, show ? 'login.password.hide' : 'login.password.show'))
      svg?.querySelector('use')?.setAttribute('href', `${spriteUrl}#${show ? 'eyeOff' : 'eye'}`)
    })
  }
}

/** rne carries no state: choosing it blanks and disables the UF (a hidden input sends the blank); rg and cin start at SP. */
function wireEmployeeForm(scope: HTMLElement): void {
  const type = scope.querySelector('select[name="doc_type"]') as HTMLSelectElement | null
  const uf = scope.querySelector('select[data-uf-defaults]') as HTMLSelectElement | null
  if (!type || !uf) return
  const defaults = JSON.parse(uf.dataset.ufDefaults ?? '{}') as Record<string, string>
  type.addEventListener('change', () => {
    const none = type.value === 'rne'
    uf.value = defaults[type.value] ?? uf.value
    uf.disabled = none
    let blank = uf.parentElement!.querySelector<HTMLInputElement>('input[type="hidden"][name="uf"]')
    if (none && !blank) {
      blank = el('input', { type: 'hidden', name: 'uf', value: uf.value })
      uf.parentElement!.insertBefore(blank, uf.nextSibling)
    } else if (!none && blank) blank.parentElement!.removeChild(blank)
  })
}

/** Google sign-in (seed 000 §2.1, §8) through the popup on /authentication/google; the id_token is posted to /login. */
function wireGoogle(s: Screen, scope: HTMLElement, showError: (key: string | null) => void): void {
  for (const button of scope.querySelectorAll<HTMLButtonElement>('button[data-google]')) {
    const idle = [...button.childNodes]
    button.disabled = false
    button.addEventListener('click', () => {
      const state = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')
      const popup = window.open(`/authentication/google?state=${state}`, 'google-signin', 'popup,width=480,height=640')
      if (!popup) return showError('login.msg.error.google.popup_closed')
      button.disabled = true
      button.setAttribute('aria-busy', 'true')
      button.replaceChildren(spinner(), text(s, 'login.google.waiting'))
      let done = false
      const finish = () => {
        done = true
        button.disabled = false
        button.setAttribute('aria-busy', 'false')
        button.replaceChildren(...idle)
        window.removeEventListener('message', onMessage)
        clearInterval(timer)
      }
      const onMessage = (e: MessageEvent<GoogleSigninMessage>) => {
        if (e.origin !== window.location.origin || e.data?.type !== 'google-signin' || e.data.state !== state) return
        finish()
        if (e.data.id_token) {
          showError(null)
          button.disabled = true
          const form = el('form', { method: 'post', action: s.action, hidden: '' })
          for (const [name, value] of Object.entries({ intent: 'google', id_token: e.data.id_token, redirectTo: s.redirectTo })) {
            form.appendChild(el('input', { type: 'hidden', name, value }))
          }
          document.body.appendChild(form)
          form.submit()
        } else if (e.data.error === 'access_denied') showError('login.msg.error.google.denied')
        else if (e.data.error === 'unavailable') showError('login.msg.error.provider_unavailable')
        else showError('login.msg.error.google.invalid')
      }
      const timer = setInterval(() => {
        if (!popup.closed || done) return
        // The callback posts its message just before closing: give it a moment to arrive.
        setTimeout(() => {
          if (done) return
          finish()
          showError('login.msg.error.google.popup_closed')
        }, 500)
        clearInterval(timer)
      }, 400)
      window.addEventListener('message', onMessage)
    })
  }
}

/** Everything inside one panel (or the token-login view): forms, captcha, toggles, Google. */
function wirePanel(s: Screen, scope: HTMLElement, showError: (key: string | null) => void): void {
  wirePasswordToggles(s, scope)
  wireEmployeeForm(scope)
  wireGoogle(s, scope, showError)
  for (const form of scope.querySelectorAll<HTMLFormElement>('form[data-signin-form]')) {
    const widget = form.querySelector<HTMLElement>('[data-captcha]')
    const auto = form.hasAttribute('data-auto-submit')
    form.addEventListener('submit', (e) => {
      if (form.getAttribute('aria-busy') === 'true' || form.querySelector('button[data-blocked="true"]')) return e.preventDefault()
      setSubmit(s, form, { pending: true })
    })
    if (widget) {
      setSubmit(s, form, { blocked: true })
      runCaptcha(s, widget, (token) => {
        setSubmit(s, form, { blocked: !token })
        if (token && auto) form.requestSubmit()
      })
    } else if (auto) form.requestSubmit()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The screen

/** Adds the screen's behaviour to a server-rendered sign-in screen (`[data-signin]`); once per element. */
export function enhanceSignin(root: HTMLElement): void {
  if (root.dataset.enhanced) return
  root.dataset.enhanced = 'true'
  const s: Screen = {
    root,
    texts: JSON.parse(root.dataset.texts ?? '{}') as Texts,
    realm: root.dataset.realm ?? '',
    api: root.dataset.api ?? '/api/',
    locale: root.dataset.locale ?? document.documentElement.lang,
    action: root.dataset.action ?? '/login',
    redirectTo: root.dataset.redirectTo ?? '/',
  }
  const clientError = root.querySelector<HTMLElement>('[data-client-error]')
  const serverError = root.querySelector<HTMLElement>('[data-server-error]')
  const showError = (key: string | null) => {
    if (!clientError) return
    clientError.textContent = key ? text(s, key) : ''
    clientError.hidden = !key
    if (key && serverError) serverError.hidden = true
    const notice = key ? root.querySelector<HTMLElement>('[data-notice]') : null
    if (notice) notice.hidden = true
  }

  // Tabs: each method's panel is a <template>; the live panel is swapped for a fresh copy (a new captcha).
  const tablist = root.querySelector<HTMLElement>('[role="tablist"]')
  const panelHost = root.querySelector<HTMLElement>('[data-panel-host]')
  const tabs = () => [...(tablist?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])].filter((t) => !t.hidden)
  function activate(method: string, focus = false): void {
    const template = root.querySelector<HTMLTemplateElement>(`template[data-panel="${method}"]`)
    if (!template || !panelHost) return
    for (const tab of tablist?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? []) {
      const on = tab.dataset.method === method
      tab.setAttribute('aria-selected', String(on))
      tab.tabIndex = on ? 0 : -1
      if (on && focus) tab.focus()
    }
    const panel = template.content.firstElementChild!.cloneNode(true) as HTMLElement
    panelHost.replaceChildren(panel)
    wirePanel(s, panel, showError)
  }
  for (const tab of tablist?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? []) {
    tab.addEventListener('click', () => tab.getAttribute('aria-selected') !== 'true' && activate(tab.dataset.method!))
    tab.addEventListener('keydown', (e) => {
      const list = tabs()
      const index = list.indexOf(tab)
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
      const to = e.key === 'Home' ? list[0] : e.key === 'End' ? list[list.length - 1] : step ? list[(index + step + list.length) % list.length] : null
      if (!to) return
      e.preventDefault()
      activate(to.dataset.method!, true)
    })
  }
  if (panelHost?.firstElementChild) wirePanel(s, panelHost.firstElementChild as HTMLElement, showError)
  const token = root.querySelector<HTMLElement>('[data-token-login]')
  if (token) wirePanel(s, token, showError)

  // The TV-provider tab: revealed by the 10th click on the logo where the realm allows it.
  let clicks = 0
  root.querySelector<HTMLButtonElement>('.entry-logo button')?.addEventListener('click', () => {
    clicks += 1
    const tv = tablist?.querySelector<HTMLButtonElement>('[role="tab"][data-method="iptv"]')
    if (clicks !== TV_PROVIDER_CLICKS || !tv?.hidden) return
    tv.hidden = false
    tablist!.hidden = false
    const status = root.querySelector<HTMLElement>('[data-unlocked-status]')
    if (status) status.textContent = text(s, 'login.method.iptv.unlocked')
    activate('iptv')
  })

  // The language menu reloads the page in the chosen language as soon as one is picked.
  const language = root.querySelector('.language-menu select') as HTMLSelectElement | null
  language?.addEventListener('change', () => language.form?.requestSubmit())

  // A form answered with errors: its first invalid field gets the focus.
  root.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
}
