import * as v from 'valibot'
import { PaidConfirmation } from './ai'
import { Id } from './tms/common'

/**
 * A persona's paid media (issue 16 "Animations … and voice cloning behind interfaces; each paid call is confirmed
 * with its credit price"): generated animations per kind and the cloned custom voice. Both bodies carry the price the
 * user confirmed and the attempt's idempotency key (`PaidConfirmation`).
 */

/** The animations a persona generates (seed 002 §3): idle, talk, enter, leave. */
export const PERSONA_ANIMATION_KINDS = ['idle', 'talk', 'enter', 'leave'] as const
export type PersonaAnimationKind = (typeof PERSONA_ANIMATION_KINDS)[number]

/** POST /personai/persona/{id}/animation. `text`: what a talk animation says (the persona's greeting when empty). */
export const AnimationGenerate = v.object({
  ...PaidConfirmation.entries,
  kind: v.picklist(PERSONA_ANIMATION_KINDS, 'validation.picklist'),
  text: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(1000, 'validation.max_length')), ''),
})
export type AnimationGenerate = v.InferOutput<typeof AnimationGenerate>

/** POST /personai/persona/{id}/voice/clone: the uploaded custom voice (an audio file of the realm) and its name. */
export const VoiceCloneInput = v.object({
  ...PaidConfirmation.entries,
  file_id: Id,
  name: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(100, 'validation.max_length')), ''),
})
export type VoiceCloneInput = v.InferOutput<typeof VoiceCloneInput>

/** A persona's animation of one kind as answered: pending (the provider works), done (its video), failed (refunded). */
export interface PersonaAnimation {
  kind: PersonaAnimationKind
  provider: string
  status: 'pending' | 'done' | 'failed'
  url: string
  error: string | null
  operation_id: string
  updated_at: string
  updated_by: string
}
