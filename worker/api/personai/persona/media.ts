import { Hono } from 'hono'
import * as v from 'valibot'
import { PAID_OPERATIONS, Voice } from '#shared/schemas/ai'
import { AnimationGenerate, VoiceCloneInput, type PersonaAnimation } from '#shared/schemas/persona-media'
import { PersonaMessages } from '#shared/schemas/persona'
import { settingsOf } from '../../../ai'
import { animationAdapter, voiceCloneAdapter, type AnimationAdapter } from '../../../ai/media'
import { paidOperation, refundOperation } from '../../../ai/paid'
import { AiError } from '../../../ai/types'
import { auditStatement } from '../../../db/audit'
import { runBatch } from '../../../db/batch'
import { getFile } from '../../../db/files'
import { contentPrices } from '../../../db/ledger-catalog'
import {
  finishAnimationStatement,
  listAnimations,
  personaImageRow,
  personaVoiceRow,
  setPersonaVoiceStatement,
  startAnimationStatement,
  type PersonaAnimationRow,
} from '../../../db/persona-media'
import { apiError } from '../../../lib/errors'
import { guarded, guardedJson } from '../../../lib/guard'
import { nowIso } from '../../../lib/tms'
import type { AppEnv } from '../../context'
import { personaAccess, personaAnyAccess, requirePersona } from '../common'

/**
 * /personai/persona/{personaId}/animation and …/voice/clone: the persona's paid media (issue 16). Each call is a
 * paid operation (worker/ai/paid.ts): the price the user confirmed and an idempotency key; the debit goes through the
 * ledger before the provider is called and is reversed when the provider fails. Without a provider configured in the
 * realm each answers 409 `provider_required` (the editor says a provider must be configured).
 *
 * D-ID talks are asynchronous (decision: finished on read): the operation stores the talk's id as the kind's pending
 * animation; `GET …/animation` asks the provider about each pending one and stores the result URL (done) or, when the
 * talk failed, refunds the operation and marks it failed. The editor reads it again while one is pending.
 */
const EDIT = personaAccess('persona_persona_edit')
const READ = personaAnyAccess('persona_persona_get', 'persona_persona_edit')

const view = ({ realm: _r, persona_id: _p, ref: _ref, created_at: _c, ...a }: PersonaAnimationRow): PersonaAnimation => a

const providerRequired = (field: string, provider: string) => apiError(409, 'provider_required', 'ai.error.provider_required', field, provider)

/** Asks the provider about the persona's pending animations; stores what finished (done, or failed and refunded). */
async function settlePending(env: Env, realm: string, personaId: string, rows: PersonaAnimationRow[], adapter: AnimationAdapter | null) {
  const pending = rows.filter((r) => r.status === 'pending' && r.ref && adapter?.provider === r.provider)
  if (!adapter || !pending.length) return rows
  await Promise.all(
    pending.map(async (r) => {
      let job
      try {
        job = await adapter.check(r.ref)
      } catch (err) {
        // The provider did not answer now: the animation stays pending and is asked about on the next read.
        if (err instanceof AiError) return
        throw err
      }
      if (job.status === 'pending') return
      const at = nowIso()
      if (job.status === 'done') {
        await finishAnimationStatement(env.DB, realm, personaId, r.kind, r.ref, { status: 'done', url: job.url }, at).run()
        return
      }
      await refundOperation(env, realm, r.operation_id, `ai_provider_failed: ${job.reason}`)
      await finishAnimationStatement(env.DB, realm, personaId, r.kind, r.ref, { status: 'failed', error: job.reason.slice(0, 300) }, at).run()
    }),
  )
  return listAnimations(env.DB, realm, personaId)
}

export const media = new Hono<AppEnv>()
  /** GET …/animation: the persona's generated animations (pending ones asked about first), the providers and the prices. */
  .get(
    '/animation',
    guarded(READ, async (c, auth) => {
      const p = await requirePersona(c, auth)
      const settings = await settingsOf(c.env, auth.realm)
      const rows = await settlePending(c.env, auth.realm, p.id, await listAnimations(c.env.DB, auth.realm, p.id), animationAdapter(c.env, settings.did))
      // The prices and the clone provider too: an editor may lack the permissions of /api/ai/status (persona_persona_list).
      const prices = await contentPrices(c.env.DB, auth.realm, Object.values(PAID_OPERATIONS))
      return c.json({
        items: rows.map(view),
        provider: settings.did ? 'did' : null,
        voice_clone_provider: settings.elevenlabs ? 'elevenlabs' : null,
        prices: { animation: prices.get(PAID_OPERATIONS.animation) ?? null, voice_clone: prices.get(PAID_OPERATIONS.voice_clone) ?? null },
      })
    }),
  )
  /**
   * POST …/animation: generates the persona's animation of a kind (idle, talk, enter, leave) from its image with the
   * realm's animation provider, paid (confirm_points, idempotency_key). Answers the kind's animation (pending).
   */
  .post(
    '/animation',
    guardedJson(EDIT, AnimationGenerate, async (c, auth, body) => {
      const p = await requirePersona(c, auth)
      const settings = await settingsOf(c.env, auth.realm)
      const adapter = animationAdapter(c.env, settings.did)
      if (!adapter) throw providerRequired('provider', 'did')
      const image = (await personaImageRow(c.env.DB, auth.realm, p.id))?.image_url ?? ''
      if (!image) throw apiError(422, 'image_required', 'persona.media.image_required', 'image_file_id', '')
      const greeting = v.parse(PersonaMessages, JSON.parse(p.messages || '{}')).greeting
      const text = body.kind === 'talk' ? body.text || greeting || p.name : ''
      const { operation, replayed } = await paidOperation(
        c.env,
        { realm: auth.realm, nick: auth.nick },
        {
          kind: 'animation',
          provider: adapter.provider,
          idempotencyKey: body.idempotency_key,
          confirmPoints: body.confirm_points,
          request: { persona: p.id, kind: body.kind, image, text },
          requestId: c.get('requestId'),
        },
        async () => {
          const job = await adapter.start({ kind: body.kind, imageUrl: image, text: text || undefined })
          return job.status === 'done' ? { ref: job.ref, status: job.status, url: job.url } : { ref: job.ref, status: job.status }
        },
      )
      const ref = String(operation.result.ref ?? '')
      await runBatch(c.env.DB, [
        startAnimationStatement(
          c.env.DB,
          { realm: auth.realm, personaId: p.id, kind: body.kind, provider: operation.provider, ref, operationId: operation.id, by: auth.nick },
          nowIso(),
        ),
      ])
      const rows = await listAnimations(c.env.DB, auth.realm, p.id)
      const row = rows.find((r) => r.kind === body.kind)
      return c.json({ animation: row ? view(row) : null, operation: { id: operation.id, points: operation.points, replayed } }, replayed ? 200 : 201)
    }),
  )
  /**
   * POST …/voice/clone: clones the uploaded custom voice (an audio file of the realm: wav, ogg, mp3) with the realm's
   * voice cloning provider (ElevenLabs), paid; the returned voice id becomes the persona's voice code (custom).
   */
  .post(
    '/voice/clone',
    guardedJson(EDIT, VoiceCloneInput, async (c, auth, body) => {
      const p = await requirePersona(c, auth)
      const settings = await settingsOf(c.env, auth.realm)
      const adapter = voiceCloneAdapter(c.env, settings.elevenlabs)
      if (!adapter) throw providerRequired('provider', 'elevenlabs')
      const file = await getFile(c.env.DB, auth.realm, body.file_id)
      if (!file || file.kind !== 'audio' || !['mp3', 'wav', 'ogg'].includes(file.ext))
        throw apiError(422, 'invalid_type', 'validation.persona.voice_file', 'file_id', body.file_id)
      const name = body.name || p.name
      const { operation, replayed } = await paidOperation(
        c.env,
        { realm: auth.realm, nick: auth.nick },
        {
          kind: 'voice_clone',
          provider: adapter.provider,
          idempotencyKey: body.idempotency_key,
          confirmPoints: body.confirm_points,
          request: { persona: p.id, file: file.id, name },
          requestId: c.get('requestId'),
        },
        async () => {
          const object = await c.env.FILES.get(file.key)
          if (!object) throw new AiError('ai_provider_failed', 'ai.error.provider_failed', 'missing_file')
          const sample = new Blob([await object.arrayBuffer()], { type: file.content_type })
          return adapter.clone({ name, sample, fileName: `${file.name || 'voice'}` })
        },
      )
      const code = String(operation.result.voice_code ?? '')
      const stored = await personaVoiceRow(c.env.DB, auth.realm, p.id)
      const before = stored?.voice ? v.safeParse(Voice, JSON.parse(stored.voice)) : null
      const old = before?.success ? before.output : null
      const voice = v.parse(Voice, {
        provider: 'elevenlabs',
        code,
        language: old?.language ?? stored?.language ?? p.language,
        voice_index: old?.voice_index ?? 0,
        custom: true,
        settings: old?.provider === 'elevenlabs' ? old.settings : {},
      })
      if (!(old?.provider === 'elevenlabs' && old.code === code && old.custom)) {
        const at = nowIso()
        await runBatch(c.env.DB, [
          setPersonaVoiceStatement(c.env.DB, auth.realm, p.id, voice, auth.nick, at),
          auditStatement(c.env.DB, {
            realm: auth.realm,
            actor: auth.nick,
            action: 'clone_voice',
            entity: 'persona',
            entityId: p.id,
            before: { voice: old },
            after: { voice, operation: operation.id },
            requestId: c.get('requestId'),
          }),
        ])
      }
      return c.json({ voice, operation: { id: operation.id, points: operation.points, replayed } }, replayed ? 200 : 201)
    }),
  )
