/**
 * Seed 002 §8 microphone and camera errors (not found, not readable, permission denied, unexpected), from the
 * DOMException `getUserMedia` / `getDisplayMedia` rejects with. The conference asks for each device on its own, so
 * the error names the device that failed. Translated as `live.media.error.<device>_<reason>`.
 */
export type MediaDevice = 'microphone' | 'camera' | 'screen'
export type MediaErrorReason = 'not_found' | 'not_readable' | 'permission_denied' | 'unexpected'

export function mediaErrorReason(err: unknown): MediaErrorReason {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : ''
  switch (name) {
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'not_found'
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'not_readable'
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'permission_denied'
    default:
      return 'unexpected'
  }
}

export function mediaErrorKey(device: MediaDevice, err: unknown): string {
  return `live.media.error.${device}_${mediaErrorReason(err)}`
}
