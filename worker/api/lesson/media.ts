import { Hono } from 'hono'
import * as v from 'valibot'
import { PAID_OPERATIONS, Voice } from '#shared/schemas/ai'
import { LessonMediaGenerate, type LessonMediaState, type SlideMediaItem, type StudentSlideMedia } from '#shared/schemas/lesson/media'
import type { Slide } from '#shared/schemas/lesson/slide'
import { settingsOf } from '../../ai'
import { animationAdapter, type AnimationAdapter } from '../../ai/media'
import { paidOperation, refundOperation } from '../../ai/paid'
import { CHARS_PER_CREDIT, synthesizerFor, type Synthesizer } from '../../ai/speech'
import { AiError } from '../../ai/types'
import { PROVIDER_TIMEOUT_MS } from '../../ai/openai'
import { runBatch } from '../../db/batch'
import { insertFileStatement, type FileRow } from '../../db/files'
import { contentPrices } from '../../db/ledger-catalog'
import {
  deleteFilesStatement,
  deleteLessonMediaStatement,
  finishLessonVideoStatement,
  listLessonMedia,
  mediaFileByKey,
  operationsUnderKey,
  putLessonMediaStatement,
  unusedMediaFiles,
  type LessonMediaRow,
} from '../../db/lesson-media'
import { personaImageRow, personaVoiceRow } from '../../db/persona-media'
import { getRealmRow, realmConfig } from '../../db/realms'
import { randomToken, sha256Hex } from '../../lib/crypto'
import { ApiError, apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { nowIso } from '../../lib/tms'
import type { Auth } from '../../db/sessions'
import { type AppEnv, type Ctx, origin, pathParam } from '../context'
import { requireLessonModel } from './model'

/**
 * A lesson's narration audio and persona videos (issue 18): `GET /lesson/model/{id}/media` (the state per slide,
 * pending videos asked about first), `POST …/media/narration` and `POST …/media/video` (paid: the total price shown
 * and an idempotency key; each slide is one paid operation under `<key>:<slide id>`, refunded when its provider
 * fails). Media are content-addressed files (`<realm>/lesson-media/<hash>.<ext>`): a slide whose narration and voice
 * (video: audio and image) were made before, by this lesson or another, is linked without paying again.
 */

type LessonLike = { id: string; slides: Slide[]; persona_id: string | null }

/** What a lesson's media are made from: the persona's voice (parsed) and image. */
interface Sources {
  voice: Voice | null
  image: string
  personaId: string | null
}

async function sourcesOf(db: D1Database, realm: string, personaId: string | null): Promise<Sources> {
  if (!personaId) return { voice: null, image: '', personaId }
  const [voiceRow, imageRow] = await Promise.all([personaVoiceRow(db, realm, personaId), personaImageRow(db, realm, personaId)])
  const parsed = voiceRow?.voice ? v.safeParse(Voice, JSON.parse(voiceRow.voice)) : null
  return { voice: parsed?.success ? parsed.output : null, image: imageRow?.image_url ?? '', personaId }
}

const narrationOf = (s: Slide) => s.narration.trim()
const audioHash = (text: string, voice: Voice) => sha256Hex(JSON.stringify({ text, voice }))
const videoHash = (audio: string, image: string) => sha256Hex(JSON.stringify({ audio, image }))
const mediaKey = (realm: string, hash: string, ext: 'mp3' | 'mp4') => `${realm}/lesson-media/${hash}.${ext}`

/** Per slide, the hashes its media should have now (null: nothing to make: no narration, no voice, no image). */
async function wantedHashes(slides: Slide[], src: Sources) {
  return Promise.all(
    slides.map(async (s) => {
      const text = narrationOf(s)
      const audio = text && src.voice ? await audioHash(text, src.voice) : null
      const video = audio && src.image && s.overlay === 'voice_image' ? await videoHash(audio, src.image) : null
      return { slide: s, text, audio, video }
    }),
  )
}

/** The files base URL of the realm (`/files/` under the request's origin, or the realm's own). */
async function filesBase(c: Ctx, realm: string): Promise<string> {
  const row = await getRealmRow(c.env.DB, realm)
  return (row ? realmConfig(row, origin(c), c.get('hostRealm') === null).files_base_url : '/files/').replace(/\/?$/, '/')
}

/**
 * The media of a lesson that are current (their hash is what the slide, voice and image make now), per slide: what a
 * student's player plays. Anything else is spoken by the browser.
 */
export async function studentMedia(c: Ctx, realm: string, lesson: LessonLike): Promise<StudentSlideMedia> {
  const rows = await listLessonMedia(c.env.DB, realm, lesson.id)
  if (!rows.length) return {}
  const wanted = await wantedHashes(lesson.slides, await sourcesOf(c.env.DB, realm, lesson.persona_id))
  const base = await filesBase(c, realm)
  const out: StudentSlideMedia = {}
  for (const w of wanted) {
    const find = (kind: 'audio' | 'video', hash: string | null) =>
      rows.find((r) => r.slide_id === w.slide.id && r.kind === kind && r.status === 'done' && r.hash === hash && r.file_key)
    const audio = find('audio', w.audio)
    const video = find('video', w.video)
    if (audio || video) out[w.slide.id] = { ...(audio ? { audio: base + audio.file_key } : {}), ...(video ? { video: base + video.file_key } : {}) }
  }
  return out
}

interface Context {
  sources: Sources
  synth: Synthesizer | null
  adapter: AnimationAdapter | null
  prices: { narration_audio: number; persona_video: number }
  voiceReason: LessonMediaState['voice_reason']
}

async function contextOf(c: Ctx, realm: string, lesson: LessonLike): Promise<Context> {
  const [settings, sources, prices] = await Promise.all([
    settingsOf(c.env, realm),
    sourcesOf(c.env.DB, realm, lesson.persona_id),
    contentPrices(c.env.DB, realm, [PAID_OPERATIONS.lesson_narration_audio, PAID_OPERATIONS.lesson_persona_video]),
  ])
  const synth = sources.voice ? synthesizerFor(c.env, settings, sources.voice) : null
  return {
    sources,
    synth,
    adapter: animationAdapter(c.env, settings.did),
    prices: {
      narration_audio: prices.get(PAID_OPERATIONS.lesson_narration_audio) ?? 0,
      persona_video: prices.get(PAID_OPERATIONS.lesson_persona_video) ?? 0,
    },
    voiceReason: !lesson.persona_id
      ? 'no_persona'
      : !sources.voice || sources.voice.provider === 'browser'
        ? 'browser_voice'
        : synth
          ? null
          : 'ai_not_configured',
  }
}

const units = (text: string) => Math.max(1, Math.ceil(text.length / CHARS_PER_CREDIT))

/** The editor's view of the lesson's media: per slide its audio and video (stale or not) and what generating costs now. */
async function stateOf(c: Ctx, realm: string, lesson: LessonLike, ctx: Context, rows: LessonMediaRow[]): Promise<LessonMediaState> {
  const base = await filesBase(c, realm)
  const wanted = await wantedHashes(lesson.slides, ctx.sources)
  const item = (r: LessonMediaRow | undefined, hash: string | null): SlideMediaItem | null =>
    r ? { status: r.status, provider: r.provider, url: r.file_key ? base + r.file_key : null, stale: r.hash !== hash, error: r.error } : null
  const slides = wanted.map((w) => {
    const audioRow = rows.find((r) => r.slide_id === w.slide.id && r.kind === 'audio')
    const videoRow = rows.find((r) => r.slide_id === w.slide.id && r.kind === 'video')
    const audio = item(audioRow, w.audio)
    const video = item(videoRow, w.video)
    const audioCurrent = audio?.status === 'done' && !audio.stale
    const videoCurrent = video && video.status !== 'failed' && !video.stale
    return {
      slide_id: w.slide.id,
      chars: w.text.length,
      wants_video: w.slide.overlay === 'voice_image',
      audio,
      video,
      audio_points: ctx.synth && w.audio && !audioCurrent ? ctx.prices.narration_audio * units(w.text) : 0,
      video_points: ctx.adapter && w.video && audioCurrent && !videoCurrent ? ctx.prices.persona_video : 0,
      // Internal: what the generators need.
      _w: w,
      _audioRow: audioRow,
      _audioCurrent: audioCurrent,
      _needsAudio: Boolean(ctx.synth && w.audio && !audioCurrent),
      _needsVideo: Boolean(ctx.adapter && w.video && audioCurrent && !videoCurrent),
    }
  })
  const sum = (k: 'audio_points' | 'video_points') => slides.reduce((n, s) => n + s[k], 0)
  return {
    voice_provider: ctx.synth?.provider ?? null,
    voice_reason: ctx.voiceReason,
    animation_provider: ctx.adapter?.provider ?? null,
    prices: ctx.prices,
    slides: slides as LessonMediaState['slides'],
    narration_points: sum('audio_points'),
    video_points: sum('video_points'),
    narration_slides: slides.filter((s) => s._needsAudio).length,
    video_slides: slides.filter((s) => s._needsVideo).length,
  }
}

type InternalSlide = LessonMediaState['slides'][number] & {
  _w: Awaited<ReturnType<typeof wantedHashes>>[number]
  _audioRow?: LessonMediaRow
  _needsAudio: boolean
  _needsVideo: boolean
}

/** The answer without the internal fields. */
const publicState = (s: LessonMediaState): LessonMediaState => ({
  ...s,
  slides: s.slides.map((x) => {
    const { _w, _audioRow, _audioCurrent, _needsAudio, _needsVideo, ...rest } = x as InternalSlide & { _audioCurrent: boolean }
    return rest
  }),
})

/** Stores bytes under a content-addressed key as a permanent file of the realm (the row is the caller's to insert). */
async function storeMedia(env: Env, realm: string, nick: string, key: string, ext: 'mp3' | 'mp4', bytes: Uint8Array): Promise<FileRow> {
  const contentType = ext === 'mp3' ? 'audio/mpeg' : 'video/mp4'
  await env.FILES.put(key, bytes, { httpMetadata: { contentType }, customMetadata: { realm, uploaded_by: nick } })
  return {
    id: randomToken(16),
    realm,
    key,
    name: key.split('/').pop() ?? key,
    ext,
    kind: ext === 'mp3' ? 'audio' : 'video',
    content_type: contentType,
    size: bytes.length,
    width: null,
    height: null,
    persist: 1,
    permanent: 1,
    uploaded_by: nick,
    created_at: nowIso(),
    expires_at: null,
  }
}

/** A slide's medium as stored: its key columns, what made it and by which provider. */
type MediaKeyRow = Pick<LessonMediaRow, 'realm' | 'lesson_id' | 'slide_id' | 'kind' | 'hash' | 'provider'>

/** Links a slide's medium to the file stored under `key` (its row inserted when new; the row already there is kept). */
async function linkMedia(db: D1Database, m: MediaKeyRow, file: FileRow | null, key: string, operationId: string | null, by: string) {
  if (file) await runBatch(db, [insertFileStatement(db, file, true)])
  const stored = await mediaFileByKey(db, m.realm, key)
  if (!stored) throw new Error(`lesson media file ${key} missing`)
  await runBatch(db, [putLessonMediaStatement(db, { ...m, status: 'done', ref: '', error: null, file_id: stored.id, operation_id: operationId }, by, nowIso())])
}

/** The refunded operation's id of a provider failure (paidOperation's 502), or null for any other error. */
function refundedOperation(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status !== 502) return null
  const value = err.errors[0]?.value as { operation?: string; refunded?: boolean } | undefined
  return value?.refunded ? (value.operation ?? '') : null
}

async function download(url: string): Promise<Uint8Array> {
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
  } catch {
    throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'unreachable')
  }
  if (!response.ok) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', response.status)
  return new Uint8Array(await response.arrayBuffer())
}

/** Asks the provider about pending videos: a finished one is downloaded and stored; a failed one refunded. */
async function settleVideos(c: Ctx, realm: string, lessonId: string, rows: LessonMediaRow[], adapter: AnimationAdapter | null): Promise<boolean> {
  const pending = rows.filter((r) => r.kind === 'video' && r.status === 'pending' && r.ref && adapter?.provider === r.provider)
  if (!adapter || !pending.length) return false
  await Promise.all(
    pending.map(async (r) => {
      let job
      try {
        job = await adapter.check(r.ref)
        if (job.status === 'done') {
          const key = mediaKey(realm, r.hash, 'mp4')
          const file = (await mediaFileByKey(c.env.DB, realm, key)) ? null : await storeMedia(c.env, realm, r.updated_by, key, 'mp4', await download(job.url))
          if (file) await runBatch(c.env.DB, [insertFileStatement(c.env.DB, file, true)])
          const stored = await mediaFileByKey(c.env.DB, realm, key)
          if (stored) await runBatch(c.env.DB, [finishLessonVideoStatement(c.env.DB, r, { status: 'done', fileId: stored.id }, nowIso())])
          return
        }
      } catch (err) {
        // The provider did not answer now: the video stays pending and is asked about on the next read.
        if (err instanceof AiError) return
        throw err
      }
      if (job.status === 'pending') return
      if (r.operation_id) await refundOperation(c.env, realm, r.operation_id, `ai_provider_failed: ${job.reason}`)
      await runBatch(c.env.DB, [finishLessonVideoStatement(c.env.DB, r, { status: 'failed', error: job.reason.slice(0, 300) }, nowIso())])
    }),
  )
  return true
}

const READ = { any: ['lesson_model_get', 'lesson_model_edit'] } as const
const EDIT = { all: ['lesson_model_edit'] } as const

async function loaded(c: Ctx, realm: string, lesson: LessonLike) {
  const ctx = await contextOf(c, realm, lesson)
  let rows = await listLessonMedia(c.env.DB, realm, lesson.id)
  if (await settleVideos(c, realm, lesson.id, rows, ctx.adapter)) rows = await listLessonMedia(c.env.DB, realm, lesson.id)
  return { ctx, state: await stateOf(c, realm, lesson, ctx, rows) }
}

/** Refuses a price other than the one shown, and answers whether the key was used before (then nothing new is made). */
async function confirmed(c: Ctx, realm: string, body: LessonMediaGenerate, total: number): Promise<boolean> {
  if (await operationsUnderKey(c.env.DB, realm, body.idempotency_key)) return true
  if (body.confirm_points !== total) throw apiError(409, 'price_changed', 'ai.error.price_changed', 'confirm_points', { points: total })
  return false
}

/** The lesson model of the path, its providers and state, refused without a persona (nothing to narrate with). */
async function forGeneration(c: Ctx, auth: Auth) {
  const lesson = await requireLessonModel(c, auth, pathParam(c, 'id'))
  const { ctx, state } = await loaded(c, auth.realm, lesson)
  if (ctx.voiceReason === 'no_persona') throw apiError(422, 'persona_required', 'validation.lesson.persona_required', 'persona_id', null)
  return { lesson, ctx, state }
}

type Outcome = { slide_id: string; outcome: 'generated' | 'reused' | 'failed' }

/** One kind of generation over a lesson's slides. */
interface SlideGeneration {
  kind: 'audio' | 'video'
  paid: 'lesson_narration_audio' | 'lesson_persona_video'
  provider: string
  /** The total price shown for this generation. */
  total: number
  /** The hash the slide's medium should have when this generation makes it, else null (nothing to do). */
  wanted: (s: InternalSlide) => string | null
  points: (s: InternalSlide) => number
  units?: (s: InternalSlide) => number
  /** Calls the provider for a slide: a stored file (done), or the provider job's id (pending, finished on read). */
  make: (s: InternalSlide, key: string) => Promise<{ file: FileRow } | { ref: string }>
}

/**
 * Makes one medium a slide, in slide order: a file already stored under the slide's content-addressed key is linked
 * (not paid); otherwise one paid operation under `<key>:<slide id>`; a provider failure (refunded) marks the slide
 * failed and goes on; any other refusal (a short wallet, the cap) stops, answered as the error when nothing was made.
 */
async function generateEach(c: Ctx, auth: Auth, lesson: LessonLike, ctx: Context, state: LessonMediaState, body: LessonMediaGenerate, job: SlideGeneration) {
  const db = c.env.DB
  if (await confirmed(c, auth.realm, body, job.total)) return { ...publicState(state), results: [] as Outcome[], replayed: true, stopped: null }
  const results: Outcome[] = []
  let stop: unknown = null
  for (const s of state.slides as InternalSlide[]) {
    const hash = job.wanted(s)
    if (!hash || stop) continue
    const key = mediaKey(auth.realm, hash, job.kind === 'audio' ? 'mp3' : 'mp4')
    const m: MediaKeyRow = { realm: auth.realm, lesson_id: lesson.id, slide_id: s.slide_id, kind: job.kind, hash, provider: job.provider }
    if (await mediaFileByKey(db, auth.realm, key)) {
      await linkMedia(db, m, null, key, null, auth.nick)
      results.push({ slide_id: s.slide_id, outcome: 'reused' })
      continue
    }
    const out: { made?: { file: FileRow } | { ref: string } } = {}
    try {
      const { operation } = await paidOperation(
        c.env,
        { realm: auth.realm, nick: auth.nick },
        {
          kind: job.paid,
          provider: job.provider,
          idempotencyKey: `${body.idempotency_key}:${s.slide_id}`,
          confirmPoints: job.points(s),
          units: job.units?.(s),
          request: { lesson: lesson.id, slide: s.slide_id, hash },
          requestId: c.get('requestId'),
        },
        async () => {
          out.made = await job.make(s, key)
          return 'ref' in out.made ? { ref: out.made.ref } : { key, size: out.made.file.size }
        },
      )
      if (out.made && 'file' in out.made) await linkMedia(db, m, out.made.file, key, operation.id, auth.nick)
      else if (out.made)
        await runBatch(db, [
          putLessonMediaStatement(
            db,
            { ...m, status: 'pending', ref: out.made.ref, file_id: null, error: null, operation_id: operation.id },
            auth.nick,
            nowIso(),
          ),
        ])
      results.push({ slide_id: s.slide_id, outcome: 'generated' })
    } catch (err) {
      const op = refundedOperation(err)
      if (op === null) {
        stop = err
        continue
      }
      await runBatch(db, [
        putLessonMediaStatement(
          db,
          { ...m, status: 'failed', ref: '', file_id: null, error: 'ai_provider_failed', operation_id: op || null },
          auth.nick,
          nowIso(),
        ),
      ])
      results.push({ slide_id: s.slide_id, outcome: 'failed' })
    }
  }
  if (stop && !results.length) throw stop
  const after = await stateOf(c, auth.realm, lesson, ctx, await listLessonMedia(db, auth.realm, lesson.id))
  return { ...publicState(after), results, replayed: false, stopped: stop instanceof ApiError ? (stop.errors[0]?.cause ?? null) : null }
}

export const lessonMedia = new Hono<AppEnv>()
  /** GET /lesson/model/{id}/media: providers, prices and each slide's audio and video (pending videos asked about first). */
  .get(
    '/:id/media',
    guarded(READ, async (c, auth) => {
      const lesson = await requireLessonModel(c, auth, pathParam(c, 'id'))
      return c.json(publicState((await loaded(c, auth.realm, lesson)).state))
    }),
  )
  /**
   * POST /lesson/model/{id}/media/narration: synthesizes the narration of every slide whose audio is missing or stale
   * with the persona's voice, one paid operation a slide (priced per started 1,000 characters).
   */
  .post(
    '/:id/media/narration',
    guardedJson(EDIT, LessonMediaGenerate, async (c, auth, body) => {
      const { lesson, ctx, state } = await forGeneration(c, auth)
      const synth = ctx.synth
      const voice = ctx.sources.voice
      if (!synth || !voice) throw apiError(409, 'provider_required', 'lesson.media.voice_provider_required', 'voice', ctx.voiceReason)
      return c.json(
        await generateEach(c, auth, lesson, ctx, state, body, {
          kind: 'audio',
          paid: 'lesson_narration_audio',
          provider: synth.provider,
          total: state.narration_points,
          wanted: (s) => (s._needsAudio ? s._w.audio : null),
          points: (s) => s.audio_points,
          units: (s) => units(s._w.text),
          make: async (s, key) => ({ file: await storeMedia(c.env, auth.realm, auth.nick, key, 'mp3', (await synth.synthesize(s._w.text, voice)).audio) }),
        }),
      )
    }),
  )
  /**
   * POST /lesson/model/{id}/media/video: for slides whose overlay is "voice and image" and whose narration audio is
   * current, the realm's animation provider makes a talking video from the persona's image and that audio (a job a
   * slide, one paid operation each; GET …/media finishes them).
   */
  .post(
    '/:id/media/video',
    guardedJson(EDIT, LessonMediaGenerate, async (c, auth, body) => {
      const { lesson, ctx, state } = await forGeneration(c, auth)
      const adapter = ctx.adapter
      if (!adapter) throw apiError(409, 'provider_required', 'ai.error.provider_required', 'provider', 'did')
      if (!ctx.sources.image) throw apiError(422, 'image_required', 'persona.media.image_required', 'persona_id', lesson.persona_id)
      const base = await filesBase(c, auth.realm)
      return c.json(
        await generateEach(c, auth, lesson, ctx, state, body, {
          kind: 'video',
          paid: 'lesson_persona_video',
          provider: adapter.provider,
          total: state.video_points,
          wanted: (s) => (s._needsVideo ? s._w.video : null),
          points: (s) => s.video_points,
          make: async (s) => ({
            ref: (await adapter.start({ kind: 'talk', imageUrl: ctx.sources.image, audioUrl: base + (s._audioRow?.file_key ?? '') })).ref,
          }),
        }),
      )
    }),
  )

/**
 * Seed 001 §4: the persona is fixed once a slide has generated narration or video. A save changing the persona of a
 * lesson with media is refused (409 `persona_media`) unless it says `discard_media: true` (the editor asks first);
 * then the answer's statements delete the media with the save, and `cleanup` removes the files no lesson uses after.
 */
export async function personaSwitch(
  env: Env,
  realm: string,
  existing: { id: string; persona_id: string | null },
  next: { persona_id: string | null; discard_media?: boolean },
): Promise<{ statements: D1PreparedStatement[]; cleanup: () => Promise<void> }> {
  const none = { statements: [], cleanup: async () => {} }
  if (existing.persona_id === next.persona_id) return none
  const rows = await listLessonMedia(env.DB, realm, existing.id)
  if (!rows.length) return none
  if (!next.discard_media)
    throw apiError(409, 'persona_media', 'lesson.media.persona_switch_refused', 'discard_media', {
      audio: rows.filter((r) => r.kind === 'audio').length,
      video: rows.filter((r) => r.kind === 'video').length,
    })
  return { statements: [deleteLessonMediaStatement(env.DB, realm, existing.id)], cleanup: () => removeUnusedFiles(env, realm, rows) }
}

/** Removes the files of these media rows that no lesson uses any more (rows first, then their R2 objects). */
export async function removeUnusedFiles(env: Env, realm: string, rows: LessonMediaRow[]) {
  const unused = await unusedMediaFiles(
    env.DB,
    realm,
    rows.map((r) => r.file_id).filter((x): x is string => Boolean(x)),
  )
  if (!unused.length) return
  await runBatch(env.DB, [
    deleteFilesStatement(
      env.DB,
      realm,
      unused.map((f) => f.id),
    ),
  ])
  await env.FILES.delete(unused.map((f) => f.key))
}
