import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { LessonMediaState } from '#shared/schemas/lesson/media'
import { hydrated, open, openPage, realmApi, signInOnScreen, url } from './browser'
import { PHONE } from './tms-student-helpers'

/**
 * Lesson narration through the configured voice provider (issue 18) end to end, in a realm of this file's own whose
 * Google Text-to-Speech key points at the local provider server the browser suite starts (tests/e2e/global-setup.ts):
 * the teacher generates the narration in the lesson editor (the price confirmed first), the student's player on a
 * phone plays the stored audio (its `<audio>` source is the realm's file holding the provider's bytes), and switching
 * the lesson's persona asks first and, confirmed, drops the generated narration. No animation provider is configured:
 * the editor says so.
 */
const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const GOOGLE = { provider: 'google', code: 'pt-BR-Neural2-A', language: 'pt-BR', settings: { pitch: 0, speaking_rate: 1, volume_gain: 0 } }

describe('lesson narration', () => {
  it('generates narration with a provider voice, the student hears the stored audio on a phone, and a persona switch asks and drops it', async () => {
    const code = `nv${tag.slice(-6)}`
    const host = `${code}.localhost`
    const password = `Senha-${tag}-42`
    const platform = await realmApi('demo', 'platform')
    await platform('POST', 'mas/realm', {
      code,
      name: `Narração ${tag}`,
      persona_enabled: true,
      hosts: [host],
      admin: { nick: 'chefe', name: 'Chefe da Narração', password, role: 'root' },
    })
    const root = await realmApi(code, 'chefe', password)
    await root('PUT', 'ai/settings', { google_api_key: 'e2e-ai-key' })
    const ana = await root<{ id: string }>('POST', 'personai/persona', { name: 'Ana', voice: GOOGLE })
    const bia = await root<{ id: string }>('POST', 'personai/persona', { name: 'Bia', voice: GOOGLE })
    const narration = `Vamos aprender frações ${tag}.`
    const model = await root<{ id: string; title: string }>('POST', 'lesson/model', {
      title: `Frações ${tag}`,
      persona_id: ana.id,
      slides: [
        {
          id: 'n1',
          background: '#ffffff',
          narration,
          overlay: 'voice',
          objects: [
            {
              id: 't1',
              name: 'Texto',
              kind: 'text',
              x: 100,
              y: 100,
              width: 2000,
              height: 400,
              rotation: 0,
              opacity: 1,
              hidden: false,
              locked: false,
              html: '<p>O que é uma fração?</p>',
              font_size: 96,
              color: '#111111',
              align: 'left',
            },
          ],
        },
      ],
    })
    const student = `aluno-${tag}`
    await root('POST', 'mas/user', { nick: student, name: 'Aluno', password, roles: [] })
    const room = await root<{ id: string }>('POST', 'room/room', { name: `Turma ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick: student })

    // The teacher: the narratives tab shows the voice provider, that no animation provider is configured, and the price.
    const { page } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url(host, `/lesson/model/edit/${model.id}`))
    await signInOnScreen(page, 'chefe', password)
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
    await hydrated(page)
    await page.getByRole('tab', { name: pt['lesson.kind.narrative'] }).click()
    const panel = page.getByTestId('lesson-media')
    await panel.waitFor()
    expect(await panel.textContent()).toContain(pt['lesson.media.voice'].replace('{{provider}}', 'google'))
    expect(await panel.textContent()).toContain(pt['lesson.media.animation_none'])
    const state = await root<LessonMediaState>('GET', `lesson/model/${model.id}/media`)
    expect(state).toMatchObject({ voice_provider: 'google', narration_slides: 1 })
    const label = pt['lesson.media.generate_narration'].replace('{{points}}', String(state.narration_points))
    await panel.getByRole('button', { name: label }).click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.textContent()).toContain(pt['lesson.media.confirm_message'].replace('{{points}}', String(state.narration_points)))
    await dialog.getByRole('button', { name: pt['persona.media.confirm.ok'] }).click()
    await expect
      .poll(() => panel.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe(pt['lesson.media.done'].replace('{{generated}}', '1').replace('{{reused}}', '0').replace('{{failed}}', '0'))
    const li = panel.locator('li[data-slide="n1"]')
    await expect.poll(() => li.textContent()).toContain(pt['lesson.media.state.done'])
    const editorAudio = await li.locator('audio').getAttribute('src')
    expect(editorAudio).toMatch(new RegExp(`/files/${code}/lesson-media/[0-9a-f]{64}\\.mp3$`))

    // Published to the student's room: on a phone the player plays the stored audio instead of the browser's voice.
    const lesson = await root<{ id: string }>('POST', 'lesson/lesson', { model_id: model.id, rooms: [room.id] })
    const { page: phone } = await openPage(PHONE)
    await open(phone, url(host, `/mobile/lesson/${lesson.id}/apply`))
    await phone.getByLabel(pt['mobile.feed.nick']).fill(student)
    await phone.getByLabel(pt['mobile.feed.password']).fill(password)
    await phone.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    const audio = phone.locator('audio.lesson-narration-audio')
    await audio.waitFor()
    await hydrated(phone)
    expect(await audio.getAttribute('aria-label')).toBe(pt['lesson.player.audio'])
    const src = await audio.getAttribute('src')
    expect(src).toBe(editorAudio)
    expect(await phone.getByRole('button', { name: pt['mobile.lesson.play'] }).count()).toBe(0)
    expect(await phone.locator('.lesson-narration').textContent()).toBe(narration)
    const heard = await phone.request.get(src!)
    expect(heard.status()).toBe(200)
    expect(heard.headers()['content-type']).toBe('audio/mpeg')
    expect((await heard.body()).toString()).toBe(`google:${narration}`)
    if (process.env.LESSON_SHOTS) await phone.screenshot({ path: `${process.env.LESSON_SHOTS}/narration-phone.png`, fullPage: true })

    // Switching the persona asks (the generated narration would be lost) and, confirmed and saved, drops it.
    if (process.env.LESSON_SHOTS) await page.screenshot({ path: `${process.env.LESSON_SHOTS}/narration-editor.png`, fullPage: true })
    await page.getByRole('tab', { name: pt['lesson.kind.persona'] }).click()
    await page.getByLabel(pt['lesson.kind.persona'], { exact: true }).selectOption(bia.id)
    const ask = page.getByRole('dialog')
    expect(await ask.textContent()).toContain(pt['lesson.media.persona_switch_message'])
    await ask.getByRole('button', { name: pt['lesson.media.persona_switch_yes'] }).click()
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await expect.poll(async () => (await root<{ persona_id: string }>('GET', `lesson/model/${model.id}`)).persona_id, { timeout: 30_000 }).toBe(bia.id)
    const after = await root<LessonMediaState>('GET', `lesson/model/${model.id}/media`)
    expect(after.slides[0].audio).toBeNull()
    expect(after.narration_slides).toBe(1)
  }, 180_000)
})
