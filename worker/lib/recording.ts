import {
  INTRO_MAX_KBPS,
  INTRO_MAX_MB,
  INTRO_MAX_SECONDS,
  RECORDING_AUDIO_CODECS,
  RECORDING_DURATION_SLACK_SECONDS,
  RECORDING_MAX_KBPS,
  RECORDING_MAX_MB,
  RECORDING_VIDEO_CODECS,
} from '#shared/schemas/csm-recording'
import { mp4AudioCodec, mp4VideoCodec, readMp4, type ReadRange } from './mp4'
import { lastClusterEnd, readWebmHead, webmSeconds } from './webm'

export type { ReadRange }

/** Bytes of a recording's head read for its header and tracks, and of its tail read for its last Cluster. */
export const HEAD_BYTES = 64 * 1024
/**
 * A Cluster lasts at most ~32.8 s (its blocks' timecodes are 16-bit offsets from its own); at the recorder's ~1.2 Mbps
 * that is ~5 MB, so an 8 MiB tail always holds the last Cluster's start.
 */
export const TAIL_BYTES = 8 * 1024 * 1024

export type RecordingVideo = { size: number; duration_seconds: number; video_codec: string; audio_codec: string }
export type RecordingProblem = { cause: string; message: string; value: unknown }

/**
 * What a file is checked for (seed 002 §5 "Recordings and intro videos"):
 * - `live`: a live session's recording from the browser recorder — WebM/Matroska only, `csm_max_duration` with a few
 *   seconds' slack (the recorder stops by its own clock);
 * - `upload`: a recording uploaded by hand (session/create) — MP4/MOV or WebM/Matroska, `csm_max_duration` exactly;
 * - `intro`: an intro video — MP4/MOV or WebM/Matroska with both video and audio, within `max_intro_size`,
 *   `max_intro_kbps` and `max_intro_duration`.
 */
export type VideoProfile = 'live' | 'upload' | 'intro'

type Limits = { mb: number; kbps: number; seconds: number; slack: number; webmOnly: boolean; needsAudio: boolean }

function limitsOf(profile: VideoProfile, maxDurationSeconds: number): Limits {
  if (profile === 'intro') return { mb: INTRO_MAX_MB, kbps: INTRO_MAX_KBPS, seconds: INTRO_MAX_SECONDS, slack: 0, webmOnly: false, needsAudio: true }
  return {
    mb: RECORDING_MAX_MB,
    kbps: RECORDING_MAX_KBPS,
    seconds: maxDurationSeconds,
    slack: profile === 'live' ? RECORDING_DURATION_SLACK_SECONDS : 0,
    webmOnly: profile === 'live',
    needsAudio: false,
  }
}

/** A container's tracks (codec names as it writes them, mapped to the seed's) and duration. */
type Container = { video: { raw: string; name: string | null }[]; audio: { raw: string; name: string | null }[]; seconds: number | null }

const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3]

async function readContainer(read: ReadRange, size: number, webmOnly: boolean): Promise<Container | RecordingProblem> {
  const magic = await read(0, Math.min(4, size))
  if (EBML_MAGIC.every((b, i) => magic[i] === b)) {
    const head = await read(0, Math.min(HEAD_BYTES, size))
    const h = readWebmHead(head)
    if (!h || !['webm', 'matroska'].includes(h.docType)) return notVideo(webmOnly, h?.docType ?? null)
    const tail = size <= HEAD_BYTES ? head : await read(Math.max(0, size - TAIL_BYTES), Math.min(TAIL_BYTES, size))
    return {
      video: h.video.map((raw) => ({ raw, name: RECORDING_VIDEO_CODECS[raw] ?? null })),
      audio: h.audio.map((raw) => ({ raw, name: RECORDING_AUDIO_CODECS[raw] ?? null })),
      seconds: webmSeconds(h, lastClusterEnd(tail)),
    }
  }
  if (webmOnly) return notVideo(true, null)
  const m = await readMp4(read, size)
  if (!m) return notVideo(false, null)
  return {
    video: m.video.map((raw) => ({ raw, name: mp4VideoCodec(raw) })),
    audio: m.audio.map((raw) => ({ raw, name: mp4AudioCodec(raw) })),
    seconds: m.seconds,
  }
}

function notVideo(webmOnly: boolean, value: unknown): RecordingProblem {
  return webmOnly
    ? { cause: 'not_webm', message: 'The recording is not a WebM or Matroska file.', value }
    : { cause: 'not_video', message: 'The file is not an MP4, MOV, WebM or Matroska video.', value }
}

/**
 * Seed 002 §5 on a stored file's own container (never on what the uploader claimed): the size, the container (the
 * EBML header of WebM/Matroska, or the boxes of MP4/MOV read by worker/lib/mp4.ts), a video track in a supported codec
 * (avc, hevc), audio only in supported codecs (aac, mp3, opus, ac3, eac3, mp4a.40.2, mp4a.40.5) — and for an intro
 * both a video and an audio track —, a readable duration within the limit, and the average bitrate within the
 * limit. Reads only headers: the first 64 KiB and last 8 MiB of a WebM, the box headers and `moov` of an MP4.
 */
export async function inspectVideo(read: ReadRange, size: number, profile: VideoProfile, maxDurationSeconds = 0): Promise<RecordingVideo | RecordingProblem> {
  const l = limitsOf(profile, maxDurationSeconds)
  const what = profile === 'intro' ? 'An intro video' : 'A recording'
  if (size > l.mb * 1024 * 1024) return { cause: 'too_large', message: `${what} has at most ${l.mb} MB.`, value: l.mb }
  const c = await readContainer(read, size, l.webmOnly)
  if ('cause' in c) return c
  if (profile === 'intro' && !c.video.length) return { cause: 'no_video', message: 'An intro video must have a video track.', value: null }
  const video = c.video.find((t) => t.name)
  if (!video) return { cause: 'video_codec', message: `${what} has no video in a supported codec (avc, hevc, h.264, h.265).`, value: c.video.map((t) => t.raw) }
  if (l.needsAudio && !c.audio.length) return { cause: 'no_audio', message: 'An intro video must have an audio track.', value: null }
  const badAudio = c.audio.filter((t) => !t.name)
  if (badAudio.length)
    return {
      cause: 'audio_codec',
      message: `${what} has audio in an unsupported codec (supported: aac, mp3, opus, ac3, eac3, mp4a.40.2, mp4a.40.5).`,
      value: badAudio.map((t) => t.raw),
    }
  const seconds = c.seconds
  if (seconds === null || !(seconds > 0)) return { cause: 'unreadable', message: `${what} has no readable duration.`, value: null }
  if (l.seconds > 0 && seconds > l.seconds + l.slack) return { cause: 'too_long', message: `${what} lasts at most ${l.seconds} s.`, value: l.seconds }
  const kbps = (size * 8) / 1000 / seconds
  if (seconds >= 1 && kbps > l.kbps) return { cause: 'bitrate', message: `${what} has at most ${l.kbps} kbps.`, value: l.kbps }
  return { size, duration_seconds: Math.round(seconds * 1000) / 1000, video_codec: video.name ?? '', audio_codec: c.audio[0]?.name ?? '' }
}
