import * as v from 'valibot'

/**
 * Recording a live session (issue 20 "Recording"): the recorder's browser uploads the mixed call to
 * `/api/csm/recording` in parts of `RECORDING_PART_BYTES` (R2's multipart rule: every part but the last the same
 * size, at least 5 MiB), then completes it; the Worker validates the file on its own WebM/Matroska metadata against
 * seed 002 §5 ("Recordings and intro videos": size, duration, bitrate, codecs).
 */

/** Bytes of every part but the last (R2: parts but the last are equal and at least 5 MiB). */
export const RECORDING_PART_BYTES = 5 * 1024 * 1024
/** Largest recording (the seed's "maximum size (MB)"; the realm has no setting for it). */
export const RECORDING_MAX_MB = 2048
/** Highest average bitrate of a recording (the seed's "bitrate (kbps)"; the recorder asks ~1,200). */
export const RECORDING_MAX_KBPS = 8000
/** The file may run this many seconds past the realm's `csm_max_duration` (the recorder stops by its own clock). */
export const RECORDING_DURATION_SLACK_SECONDS = 5
/**
 * An intro video's limits (seed 002 §5: `max_intro_size` MB, `max_intro_kbps`, `max_intro_duration` seconds; the
 * seed does not show their values): a short greeting, so 100 MB, 5,000 kbps and 3 minutes.
 */
export const INTRO_MAX_MB = 100
export const INTRO_MAX_KBPS = 5000
export const INTRO_MAX_SECONDS = 180
/** The most parts a recording has (R2's multipart limit). */
export const RECORDING_MAX_PARTS = 10_000

/** Seed 002 §5's supported codecs, by the Matroska CodecID a WebM/Matroska file names them with. */
export const RECORDING_VIDEO_CODECS: Record<string, string> = {
  'V_MPEG4/ISO/AVC': 'avc',
  'V_MPEGH/ISO/HEVC': 'hevc',
}
export const RECORDING_AUDIO_CODECS: Record<string, string> = {
  A_AAC: 'aac',
  'A_AAC/MPEG4/LC': 'mp4a.40.2',
  'A_AAC/MPEG4/LC/SBR': 'mp4a.40.5',
  'A_MPEG/L3': 'mp3',
  A_OPUS: 'opus',
  A_AC3: 'ac3',
  A_EAC3: 'eac3',
}

/** The container types the recorder may announce, in the order it prefers them (H.264: the seed's codec). */
export const RECORDING_MIME_TYPES = [
  'video/webm;codecs=h264,opus',
  'video/webm;codecs=avc1,opus',
  'video/x-matroska;codecs=avc1,opus',
  'video/webm;codecs=h264',
] as const

export const RecordingTarget = v.picklist(['channel', 'room'] as const, 'validation.picklist')

const TargetId = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/, 'validation.id'))

/** `POST /csm/recording`: start recording a channel's or room's live session. */
export const RecordingStart = v.object({
  target: RecordingTarget,
  id: TargetId,
  mime: v.pipe(v.string(), v.maxLength(100), v.regex(/^video\/(webm|x-matroska)(;\s*codecs=[\w.,\s-]+)?$/i, 'validation.csm.recording_type')),
})
export type RecordingStart = v.InferOutput<typeof RecordingStart>

/** `GET /csm/recording/policy?target=&id=`: whether the caller records there, and the realm's limits. */
export const RecordingPolicyQuery = v.object({ target: RecordingTarget, id: TargetId })

/** Path of a part: its 1-based index. */
export const RecordingPartIndex = v.pipe(
  v.string(),
  v.regex(/^\d{1,5}$/, 'validation.integer'),
  v.transform(Number),
  v.minValue(1, 'validation.csm.part_index'),
  v.maxValue(RECORDING_MAX_PARTS, 'validation.csm.part_index'),
)

/** Why a caller may not record here (the policy's `cause`; the start answers it as the envelope's cause). */
export type RecordingRefusal = 'not_recorder' | 'not_recorded' | 'recording_disabled'

export type RecordingPolicy = {
  allowed: boolean
  cause: RecordingRefusal | null
  must_record: boolean
  /** Seconds; 0 = no limit. */
  max_duration: number
  max_idle_time: number
  part_size: number
  mime_types: readonly string[]
}

export type RecordingState = {
  id: string
  session_id: string
  status: 'recording' | 'assembling' | 'complete' | 'refused' | 'aborted'
  reason: string
  part_size: number
  /** The indexes received (a resumed upload sends the others). */
  parts: number[]
  size: number
  duration_seconds: number
  video_codec: string
  audio_codec: string
}

/** Container types a recording uploaded by hand (session/create) may have: MP4/MOV or WebM/Matroska (issue 15). */
export const UPLOAD_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'] as const
/** The file extensions the upload form offers, with their container type (a browser may not know a file's type). */
export const UPLOAD_EXTENSIONS: Record<string, (typeof UPLOAD_MIME_TYPES)[number]> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
}
