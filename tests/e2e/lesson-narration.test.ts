import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import type { LessonMediaState } from '#shared/schemas/lesson/media'
import { hydrated, open, openPage, realmApi, signInOnScreen, url } from './browser'
import { PHONE } from './tms-student-helpers'
import { pngBytes } from '../support/images'
import { lessonSlide, textObject } from '../support/lesson-fixtures'

/**
 * Lesson narration through the configured voice provider (issue 18) end to end, in a realm of this file's own whose
 * Google Text-to-Speech key points at the local provider server the browser suite starts (tests/e2e/global-setup.ts):
 * the teacher generates the narration in the lesson editor (the price confirmed first), the student's player on a
 * phone plays the stored audio (its `<audio>` source is the realm's file holding the provider's bytes), and switching
 * the lesson's persona asks first and, confirmed, drops the generated narration. With the realm's D-ID key (the same
 * local server) the persona's talking video of a "voice and image" slide is made from its image and the slide's audio,
 * finished while the editor polls, and shown in the slide's persona box on the phone.
 */
const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const box = {
  id: 'p2',
  name: 'Persona',
  kind: 'persona' as const,
  x: 2400,
  y: 1400,
  width: 1000,
  height: 1000,
  rotation: 0,
  opacity: 1,
  hidden: false,
  locked: false,
}
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
    await root('PUT', 'ai/settings', { google_api_key: 'e2e-ai-key', did_api_key: 'e2e-ai-key' })
    // The persona's image: an upload of the realm (its public address is what the animation provider is given).
    const signin = await fetch(url('localhost', '/api/device'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': code },
      body: JSON.stringify({ realm: code, nick: 'chefe', password }),
    })
    const { auth_token } = (await signin.json()) as { auth_token: string }
    const form = new FormData()
    form.set('data', new Blob([pngBytes(400, 400)], { type: 'image/png' }), 'ana.png')
    form.set('persist', 'true')
    const upload = await fetch(url('localhost', '/api/mas/file'), { method: 'POST', headers: { 'x-api-realm': code, 'x-api-key': auth_token }, body: form })
    expect(upload.status, await upload.clone().text()).toBe(201)
    const image = (await upload.json()) as { id: string }
    const ana = await root<{ id: string }>('POST', 'personai/persona', { name: 'Ana', voice: GOOGLE, image_file_id: image.id })
    const bia = await root<{ id: string }>('POST', 'personai/persona', { name: 'Bia', voice: GOOGLE })
    const narration = `Vamos aprender frações ${tag}.`
    const model = await root<{ id: string; title: string }>('POST', 'lesson/model', {
      title: `Frações ${tag}`,
      persona_id: ana.id,
      slides: [
        lessonSlide('n1', [textObject('t1', '<p>O que é uma fração?</p>')], narration, 'voice'),
        lessonSlide('n2', [textObject('t2', '<p>Numerador</p>'), box], 'Eu sou a Ana.', 'voice_image'),
      ],
    })
    const student = `aluno-${tag}`
    await root('POST', 'mas/user', { nick: student, name: 'Aluno', password, roles: [] })
    const room = await root<{ id: string }>('POST', 'room/room', { name: `Turma ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick: student })

    // The teacher: the narratives tab shows the voice and animation providers and the price.
    const { page } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url(host, `/lesson/model/edit/${model.id}`))
    await signInOnScreen(page, 'chefe', password)
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
    await hydrated(page)
    await page.getByRole('tab', { name: pt['lesson.kind.narrative'] }).click()
    const panel = page.getByTestId('lesson-media')
    await panel.waitFor()
    expect(await panel.textContent()).toContain(pt['lesson.media.voice'].replace('{{provider}}', 'google'))
    expect(await panel.textContent()).toContain(pt['lesson.media.animation'].replace('{{provider}}', 'did'))
    const state = await root<LessonMediaState>('GET', `lesson/model/${model.id}/media`)
    expect(state).toMatchObject({ voice_provider: 'google', animation_provider: 'did', narration_slides: 2, video_slides: 0 })
    const label = pt['lesson.media.generate_narration'].replace('{{points}}', String(state.narration_points))
    await panel.getByRole('button', { name: label }).click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.textContent()).toContain(pt['lesson.media.confirm_message'].replace('{{points}}', String(state.narration_points)))
    await dialog.getByRole('button', { name: pt['persona.media.confirm.ok'] }).click()
    await expect
      .poll(() => panel.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe(pt['lesson.media.done'].replace('{{generated}}', '2').replace('{{reused}}', '0').replace('{{failed}}', '0'))
    const li = panel.locator('li[data-slide="n1"]')
    await expect.poll(() => li.textContent()).toContain(pt['lesson.media.state.done'])
    const editorAudio = await li.locator('audio').getAttribute('src')
    expect(editorAudio).toMatch(new RegExp(`/files/${code}/lesson-media/[0-9a-f]{64}\\.mp3$`))

    // Now the second slide's video can be made: confirmed, started, and finished while the editor reads it again.
    const videos = await root<LessonMediaState>('GET', `lesson/model/${model.id}/media`)
    expect(videos.video_slides).toBe(1)
    await panel.getByRole('button', { name: pt['lesson.media.generate_video'].replace('{{points}}', String(videos.video_points)) }).click()
    await page.getByRole('dialog').getByRole('button', { name: pt['persona.media.confirm.ok'] }).click()
    const second = panel.locator('li[data-slide="n2"]')
    await expect.poll(() => second.textContent(), { timeout: 30_000 }).toContain(`${pt['lesson.media.video']}: ${pt['lesson.media.state.done']}`)
    const editorVideo = await second.getByRole('link', { name: pt['lesson.player.video'] }).getAttribute('href')
    expect(editorVideo).toMatch(new RegExp(`/files/${code}/lesson-media/[0-9a-f]{64}\\.mp4$`))

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
    // The file as the player loads it (from the page: the realm's host resolves in the browser).
    const heard = await phone.evaluate(async (u) => {
      const r = await fetch(u)
      return { status: r.status, type: r.headers.get('content-type'), body: await r.text() }
    }, src!)
    expect(heard).toEqual({ status: 200, type: 'audio/mpeg', body: `google:${narration}` })

    // The second slide ("voice and image"): the persona's video in the slide's persona box, not the audio.
    await phone.getByRole('button', { name: pt['mobile.lesson.next'] }).click()
    const video = phone.locator('video.lesson-persona-video')
    await video.waitFor()
    expect(await video.getAttribute('src')).toBe(editorVideo)
    expect(await phone.locator('audio.lesson-narration-audio').count()).toBe(0)
    const stage = (await phone.locator('.lesson-player-stage').boundingBox())!
    const frame = (await video.boundingBox())!
    // The box at (2400, 1400) of the 3508 × 2480 page, 1000 wide.
    expect(Math.round(((frame.x - stage.x) / stage.width) * 3508)).toBeGreaterThan(2380)
    expect(Math.round((frame.width / stage.width) * 3508)).toBeGreaterThan(980)
    expect(Math.round((frame.width / stage.width) * 3508)).toBeLessThan(1020)
    if (process.env.LESSON_SHOTS) await phone.screenshot({ path: `${process.env.LESSON_SHOTS}/narration-phone.png`, fullPage: true })

    // Switching the persona asks (the generated narration would be lost) and, confirmed and saved, drops it.
    if (process.env.LESSON_SHOTS) await page.screenshot({ path: `${process.env.LESSON_SHOTS}/narration-editor.png`, fullPage: true })
    await page.getByRole('tab', { name: pt['lesson.kind.persona'] }).click()
    await page.getByRole('combobox', { name: pt['lesson.kind.persona'], exact: true }).selectOption(bia.id)
    const ask = page.getByRole('dialog')
    expect(await ask.textContent()).toContain(pt['lesson.media.persona_switch_message'])
    await ask.getByRole('button', { name: pt['lesson.media.persona_switch_yes'] }).click()
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await expect.poll(async () => (await root<{ persona_id: string }>('GET', `lesson/model/${model.id}`)).persona_id, { timeout: 30_000 }).toBe(bia.id)
    const after = await root<LessonMediaState>('GET', `lesson/model/${model.id}/media`)
    expect(after.slides.map((x) => [x.audio, x.video])).toEqual([
      [null, null],
      [null, null],
    ])
    expect(after.narration_slides).toBe(2)
  }, 180_000)
})
