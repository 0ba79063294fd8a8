import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Conference } from '~/components/live/conference'
import { mediaErrorKey, mediaErrorReason } from '~/components/live/media-errors'
import type { LiveState } from '~/components/live/use-channel-live'
import { catalogues } from '~/i18n/catalogues'
import type { LiveMember, LiveSettings } from '../../party/channel-protocol'

/**
 * The conference panel's devices (issue 20): every microphone and camera error of seed 002 §8 (not found, not
 * readable, permission denied, unexpected) is shown as its message, naming the device that failed (each device is
 * asked for on its own), in the three languages; an audio-only channel never asks for the camera.
 */

const pt = catalogues['pt-BR']
const you: LiveMember = { nick: 'ana', name: 'Ana', role: 'participant', muted: false, hand: false, since: 0 }
const settings: LiveSettings = {
  moderated_chat: false,
  moderated_topic: false,
  text_only: false,
  audio_only: false,
  attachments: true,
  persistent: false,
  max_bitrate_kbps: 0,
  reduce_on_loss: false,
  mute_collaborators: false,
  media_path: 'mesh',
  locked: false,
  breakouts: {},
}
const state = (patch: Partial<LiveSettings> = {}): LiveState => ({
  status: 'open',
  cause: null,
  you,
  channel: { id: 'c1', name: 'Canal' },
  members: [you],
  messages: [],
  pending: [],
  topic: '',
  settings: { ...settings, ...patch },
  notice: null,
  iceServers: [],
  move: null,
})

const fakeTrack = (kind: string) => ({ kind, stop: vi.fn() })
/** happy-dom's MediaStream (what a <video>'s srcObject accepts) holds whatever tracks it is given; it lacks getTracks. */
class TestStream extends MediaStream {
  getTracks() {
    return [...this.getAudioTracks(), ...this.getVideoTracks()]
  }
}

/** getUserMedia answering per device: an error name rejects with that DOMException, null gives a working device. */
function devices(mic: string | null, cam: string | null) {
  const getUserMedia = vi.fn(async (c: MediaStreamConstraints) => {
    const failure = c.audio ? mic : cam
    if (failure) throw new DOMException('refused', failure)
    return new TestStream([fakeTrack(c.audio ? 'audio' : 'video')] as unknown as MediaStreamTrack[])
  })
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia, enumerateDevices: vi.fn(async () => []) },
  })
  vi.stubGlobal('MediaStream', TestStream)
  return getUserMedia
}

const show = (s: LiveState) => render(<Conference state={s} send={vi.fn()} subscribe={() => () => undefined} />)

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('conference devices', () => {
  it.each([
    ['NotFoundError', 'not_found'],
    ['OverconstrainedError', 'not_found'],
    ['NotReadableError', 'not_readable'],
    ['AbortError', 'not_readable'],
    ['NotAllowedError', 'permission_denied'],
    ['SecurityError', 'permission_denied'],
    ['TypeError', 'unexpected'],
  ])('reads %s as %s', (name, reason) => {
    expect(mediaErrorReason(new DOMException('x', name))).toBe(reason)
    expect(mediaErrorKey('camera', new DOMException('x', name))).toBe(`live.media.error.camera_${reason}`)
  })

  it('an error that is not a DOMException is unexpected', () => {
    expect(mediaErrorReason('boom')).toBe('unexpected')
    expect(mediaErrorReason(null)).toBe('unexpected')
  })

  it('every device error has its message in pt-BR, en-US and es-ES', () => {
    for (const device of ['microphone', 'camera', 'screen'])
      for (const reason of ['not_found', 'not_readable', 'permission_denied', 'unexpected']) {
        const key = `live.media.error.${device}_${reason}`
        const texts = (['pt-BR', 'en-US', 'es-ES'] as const).map((l) => (catalogues[l] as Record<string, string>)[key])
        expect(
          texts.every((x) => typeof x === 'string' && x.length > 0),
          key,
        ).toBe(true)
        expect(new Set(texts).size, key).toBe(3)
      }
  })

  it.each([
    ['NotFoundError', 'NotReadableError', 'microphone_not_found', 'camera_not_readable'],
    ['NotAllowedError', 'NotFoundError', 'microphone_permission_denied', 'camera_not_found'],
    ['NotReadableError', 'WeirdError', 'microphone_not_readable', 'camera_unexpected'],
    ['WeirdError', 'NotAllowedError', 'microphone_unexpected', 'camera_permission_denied'],
  ])('a microphone failing with %s and a camera with %s show both messages and no preview', async (mic, cam, micKey, camKey) => {
    devices(mic, cam)
    show(state())
    fireEvent.click(screen.getByRole('button', { name: pt['live.media.turn_on'] }))
    const alert = await screen.findByRole('alert')
    expect([...alert.querySelectorAll('p')].map((p) => p.textContent)).toEqual([pt[`live.media.error.${micKey}`], pt[`live.media.error.${camKey}`]])
    expect(screen.queryByRole('button', { name: pt['live.media.transmit'] })).toBeNull()
  })

  it('a camera refused while the microphone works: its message, and the microphone previews ready to transmit', async () => {
    devices(null, 'NotAllowedError')
    show(state())
    fireEvent.click(screen.getByRole('button', { name: pt['live.media.turn_on'] }))
    expect((await screen.findByRole('alert')).textContent).toBe(pt['live.media.error.camera_permission_denied'])
    await screen.findByRole('button', { name: pt['live.media.transmit'] })
    expect(screen.getByLabelText(pt['live.media.microphone'])).toBeTruthy()
  })

  it('an audio-only channel asks for the microphone only and offers no screen sharing', async () => {
    const getUserMedia = devices(null, null)
    show(state({ audio_only: true }))
    expect(screen.queryByRole('button', { name: pt['live.media.share_screen'] })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: pt['live.media.turn_on_mic'] }))
    await screen.findByRole('button', { name: pt['live.media.transmit'] })
    await waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(1))
    expect(getUserMedia.mock.calls[0][0]).toEqual({ audio: true })
    expect(screen.queryByLabelText(pt['live.media.camera'])).toBeNull()
  })

  it('a text-only channel shows no audio and video at all', () => {
    devices(null, null)
    const { container } = show(state({ text_only: true }))
    expect(container.textContent).toBe('')
  })
})
