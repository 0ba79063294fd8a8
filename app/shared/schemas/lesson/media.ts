import * as v from 'valibot'
import { PaidConfirmation } from '../ai'

/**
 * A lesson's generated narration audio and persona videos (issue 18: "narration spoken by the configured voice
 * provider", "persona videos"), per slide. Generation is paid: the body carries the total price the editor showed and
 * the attempt's idempotency key (each slide is one paid operation under `<key>:<slide id>`).
 */
export const LessonMediaGenerate = v.object({ ...PaidConfirmation.entries })
export type LessonMediaGenerate = v.InferOutput<typeof LessonMediaGenerate>

/** One generated medium of a slide as answered. `stale`: the slide's narration, the voice or the image changed since. */
export interface SlideMediaItem {
  status: 'pending' | 'done' | 'failed'
  provider: string
  url: string | null
  stale: boolean
  error: string | null
}

/** A slide's state in the editor: its media and what generating would cost now (0: nothing to do). */
export interface SlideMediaState {
  slide_id: string
  /** Characters of the slide's narration (0: nothing to say). */
  chars: number
  /** Whether the slide's overlay draws the persona (`voice_image`), so a video is made for it. */
  wants_video: boolean
  audio: SlideMediaItem | null
  video: SlideMediaItem | null
  audio_points: number
  video_points: number
}

/** GET /lesson/model/{id}/media. */
export interface LessonMediaState {
  /** The persona's voice provider when the realm has its key; null: the browser speaks (why in `voice_reason`). */
  voice_provider: string | null
  voice_reason: 'no_persona' | 'browser_voice' | 'ai_not_configured' | null
  /** The realm's animation provider; null: none configured (the editor says so). */
  animation_provider: string | null
  /** Price list: narration per started 1,000 characters, one persona video. */
  prices: { narration_audio: number; persona_video: number }
  slides: SlideMediaState[]
  /** Totals of what generating would cost now, and how many slides it would make (a free price list costs 0). */
  narration_points: number
  video_points: number
  narration_slides: number
  video_slides: number
}

/** The media a student's player uses, per slide id (only media that are current: the browser speaks the rest). */
export type StudentSlideMedia = Record<string, { audio?: string; video?: string }>
