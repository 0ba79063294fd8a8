import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUTES, samplePath, type RouteEntry } from '#shared/manifest'
import { catalogues } from '~/i18n/catalogues'
import { validQuestion } from '../support/tms-fixtures'
import { audit, type Finding } from './axe-audit'
import { hydrated, open, openPage, realmApi, signInOnScreen, url } from './browser'
import { recordedSessions } from './session-helpers'

/**
 * axe-core on every console route of the manifest that has a screen of its own (routes still served by the "not
 * available yet" splat are left out; they gain the check when their screen lands), as the platform operator, who may
 * see every route of the demo realm. One page walks the routes in sequence, once in the default theme and once in the
 * dark one; serious and critical violations must be none.
 */

interface BuiltRoute {
  id: string
  parentId?: string
  path?: string
  index?: boolean
}

/** The console's own route patterns, read from the built client manifest (every route file the build knows). */
function builtConsolePaths(): Set<string> {
  const dir = join(import.meta.dirname, '../../build/client/assets')
  const file = readdirSync(dir).find((f) => /^manifest-.*\.js$/.test(f))
  if (!file) throw new Error('no build/client manifest: run `npm run build` first')
  const text = readFileSync(join(dir, file), 'utf8')
  const routes = (JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { routes: Record<string, BuiltRoute> }).routes
  const paths = new Set<string>()
  for (const route of Object.values(routes)) {
    const segments: string[] = []
    let inConsole = false
    for (let r: BuiltRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
      if (r.id === 'routes/_console+/_layout') inConsole = true
      if (r.path) segments.unshift(r.path)
    }
    const path = `/${segments.join('/')}`
    if (inConsole && route.id !== 'routes/_console+/_layout' && !path.includes('*')) paths.add(normalise(path))
  }
  return paths
}

/** A pattern with its parameter names erased, so `/x/:id` and `/x/:modelId` compare equal. */
const normalise = (path: string) => path.replace(/:[A-Za-z_]+/g, ':').replace(/\/$/, '') || '/'
const pattern = (entry: RouteEntry) => new RegExp(`^${entry.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/?#]+')}$`)

const pt = catalogues['pt-BR']
const routeOf = (id: string) => ROUTES.find((r) => r.id === id)!
const built = builtConsolePaths()
// A route that redirects to another address (`redirectTo`) has no screen of its own: its target is walked.
const SCREENS = ROUTES.filter((r) => !r.public && !r.redirectTo && built.has(normalise(r.path)))
const WITHOUT_PARAMS = SCREENS.filter((r) => !r.path.includes(':'))
const WITH_PARAMS = SCREENS.filter((r) => r.path.includes(':'))

describe('accessibility (axe-core)', () => {
  let page: Page
  // Parameterised routes take a real id: the first link to that pattern on the screens already visited (lists link
  // their rows' edit, detail and preview pages), so each id is one the API itself listed. A task's codes page has no
  // link until a code exists: this file publishes a task of its own to a room of its own (below) and opens its page.
  const concrete = new Map<string, string>()

  beforeAll(async () => {
    const api = await realmApi('demo', 'platform')
    const room = await api<{ id: string; name: string }>('POST', 'room/room', { name: `Sala axe ${crypto.randomUUID().slice(0, 6)}` })
    const model = await api<{ id: string }>('POST', 'tms/model', { title: 'Modelo axe', token: true, questions: [validQuestion('single')] })
    // A category under each root the realm requires on a task.
    const { categories } = await api<{ categories: { id: string; parent_id: string | null; required: boolean; selectable: boolean }[] }>(
      'GET',
      `tms/task/options/${model.id}`,
    )
    const required = categories.filter((c) => c.required && !c.parent_id).map((c) => c.id)
    const chosen = required.map((root) => categories.find((c) => c.parent_id === root && c.selectable)!.id)
    const task = await api<{ id: string }>('POST', 'tms/task', { model_id: model.id, rooms: [room.id], categories: chosen })
    concrete.set('tms.token.edit', samplePath(routeOf('tms.token.edit'), { roomName: room.name, taskId: task.id }))
    // A delivered answer, so the correction screen is audited whatever ran before: a student of the room delivers a
    // task of its own (without a token).
    const nick = `aluno-axe-${crypto.randomUUID().slice(0, 6)}`
    await api('POST', 'mas/user', { nick, name: 'Aluno Axe', password: 'senha-axe-1234', roles: [] })
    await api('POST', `room/room/${room.id}/member`, { nick })
    const open = await api<{ id: string; questions: { id: string; options: { id: string; answer: boolean }[] }[] }>('POST', 'tms/model', {
      title: 'Modelo axe entregue',
      questions: [validQuestion('single')],
    })
    const delivered = await api<{ id: string }>('POST', 'tms/task', { model_id: open.id, rooms: [room.id], categories: chosen })
    const student = await realmApi('demo', nick, 'senha-axe-1234')
    const { receipt } = await student<{ receipt: string }>('POST', `tms/answer-student/${delivered.id}/open`, {})
    const [question] = open.questions
    const answer = await student<{ id: string }>('POST', `tms/answer-student/${delivered.id}/deliver`, {
      answer_id: crypto.randomUUID(),
      receipt,
      answers: { [question.id]: { option: question.options.find((o) => o.answer)!.id } },
    })
    concrete.set('tms.task.correct', samplePath(routeOf('tms.task.correct'), { taskId: delivered.id, answerId: answer.id }))
    // A persona with a dialog, and an assistant on it: their lists then link their edit screens.
    const persona = await api<{ id: string }>('POST', 'personai/persona', { name: `Persona axe ${crypto.randomUUID().slice(0, 6)}` })
    await api('POST', `personai/persona/${persona.id}/dialog`, { type: 'conversation', name: 'Axe', questions: ['Pergunta axe'], answers: [] })
    await api('POST', 'personai/assistant', { name: 'Assistente axe', persona_id: persona.id })
    // A public chat session of it (terms accepted first), so its transcript screen is audited too.
    await api('POST', `personai/persona/${persona.id}/terms`, { accept: true })
    const chat = await api<{ session_id: string }>('POST', `personai/chat/${persona.id}/session`, {})
    concrete.set('persona.transcript.list', samplePath(routeOf('persona.transcript.list'), { personaId: persona.id }))
    concrete.set('persona.transcript.detail', samplePath(routeOf('persona.transcript.detail'), { personaId: persona.id, sessionId: chat.session_id }))
    // A quiz and a poll on a channel the test makes: the control screens are reached from their lists.
    const channel = await api<{ id: string }>('POST', 'channel', {
      name: `Canal axe ${crypto.randomUUID().slice(0, 6)}`,
      members: [{ nick: 'root', permission: 'owner' }],
    })
    const quiz = await api<{ id: string }>('POST', 'quiz', {
      name: 'Quiz axe',
      channel_id: channel.id,
      reward_type: 'realm',
      reward_value: 10,
      reward_per_player: 5,
      question_duration: 20,
      lifes_timeout: 15,
    })
    const poll = await api<{ id: string }>('POST', 'poll', { type: 'open', name: 'Enquete axe', channel_id: channel.id, question_duration: 20 })
    concrete.set('quiz.control', samplePath(routeOf('quiz.control'), { quizId: quiz.id }))
    concrete.set('poll.control', samplePath(routeOf('poll.control'), { pollId: poll.id }))
    concrete.set('quiz.edit', samplePath(routeOf('quiz.edit'), { quizId: quiz.id }))
    concrete.set('poll.edit', samplePath(routeOf('poll.edit'), { pollId: poll.id }))
    // A session category (its list links its edit screen) and a session started through the recording API.
    await api('POST', 'csm/category', { name: `Categoria axe ${crypto.randomUUID().slice(0, 6)}` })
    const [recorded] = await recordedSessions([`Sessão axe ${crypto.randomUUID().slice(0, 6)}`])
    const sessions = await api<{ items: { id: string }[] }>('GET', `csm/session?room_id=${recorded.id}`)
    concrete.set('session.detail', samplePath(routeOf('session.detail'), { sessionId: sessions.items[0].id }))
  })
  const seen = new Set<string>()
  const spent = { navigation: 0, axe: 0 }

  beforeAll(async () => {
    page = (await openPage({ viewport: { width: 1366, height: 768 } })).page
    await open(page, url('demo.localhost', '/'))
    await signInOnScreen(page, 'platform')
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
  })
  afterAll(async () => {
    await page?.context().close()
  })

  async function visit(entry: RouteEntry, path: string, findings: Finding[]) {
    const started = Date.now()
    // The script's own readiness mark, not the load event (which also waits for images and fonts).
    await page.goto(url('demo.localhost', path), { waitUntil: 'domcontentloaded' })
    await hydrated(page)
    expect(new URL(page.url()).pathname, `${entry.id} must open, not redirect`).toBe(path.split('?')[0])
    for (const href of await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) seen.add(href.split(/[?#]/)[0])
    const audited = Date.now()
    findings.push(...(await audit(page, entry.id)))
    spent.navigation += audited - started
    spent.axe += Date.now() - audited
  }

  // The walk in parts of at most CHUNK screens, each its own test (and timeout): the screens grow with every issue.
  // Screens without parameters come first, so the links a parameterised screen needs were seen before its part.
  const ORDER = [...WITHOUT_PARAMS, ...WITH_PARAMS]
  const CHUNK = 12
  const PARTS = (['SYSTEM', 'DARK'] as const).flatMap((theme) =>
    Array.from({ length: Math.ceil(ORDER.length / CHUNK) }, (_, i) => ({ theme, part: i + 1, entries: ORDER.slice(i * CHUNK, (i + 1) * CHUNK) })),
  )

  it('walks at least 50 console screens', () => {
    expect(SCREENS.length).toBeGreaterThanOrEqual(50)
  })

  it.each(PARTS)('finds no serious or critical violation in the $theme theme, part $part', async ({ theme, part, entries }) => {
    if (theme === 'DARK' && part === 1) {
      // Chosen as a user chooses it: the settings drawer saves the theme cookie the server render applies.
      await open(page, url('demo.localhost', '/'))
      await page.getByRole('button', { name: /Conta/ }).click()
      await page.getByRole('button', { name: pt['settings.title'] }).click()
      await page.getByText(pt['settings.theme.DARK'], { exact: true }).click()
      await page.getByRole('button', { name: pt['settings.save'] }).click()
      await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('DARK')
    }
    const findings: Finding[] = []
    for (const entry of entries) {
      if (!entry.path.includes(':')) {
        await visit(entry, entry.path, findings)
        continue
      }
      if (!concrete.has(entry.id)) {
        const re = pattern(entry)
        const found = [...seen].find((href) => re.test(href))
        if (!found) throw new Error(`no link to ${entry.path} on the screens visited: the demo data has no record for ${entry.id}`)
        concrete.set(entry.id, found)
      }
      await visit(entry, concrete.get(entry.id)!, findings)
    }
    expect(await page.locator('html').getAttribute('data-theme')).toBe(theme === 'SYSTEM' ? null : theme)
    // Printed, never asserted: how long the walk takes on this machine.
    console.log(`axe (${theme}, part ${part}): ${entries.length} screens; navigation ${spent.navigation} ms, axe ${spent.axe} ms`)
    spent.navigation = spent.axe = 0
    expect(findings.map((f) => `${f.route}: ${f.rule} [${f.impact}] ${f.help} — ${f.targets.join(' | ')}`)).toEqual([])
  })
})
