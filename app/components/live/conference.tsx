import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SFU_PULL_REF, type ChannelClientMessage, type ChannelServerMessage, type LiveCause } from '../../../party/channel-protocol'
import { mediaErrorKey } from './media-errors'
import { Mesh, type LocalTracks } from './mesh'
import { SfuLink } from './sfu-link'
import type { LiveState } from './use-channel-live'

/**
 * The conference panel of a live view (issue 20): turn the microphone and camera on (or share the screen), choose the
 * devices (microphone, camera, speaker) and see a preview before transmitting; then transmit to everyone present
 * through the full mesh (./mesh.ts), or through the SFU once the party moved the room there (./sfu-link.ts), and see and hear the others' tiles. A moderator's mute closes the microphone and a
 * revoked invitation (or a refused offer) stops the transmission; an invitation to speak opens the microphone.
 */

/** The party's refusals of a transmission: the client stops transmitting (the notice says why). */
const TRANSMIT_REFUSALS: ReadonlySet<LiveCause> = new Set([
  'not_speaker',
  'transmitters_full',
  'audio_only',
  'text_only',
  'tx_weekly',
  'tx_duration',
  'unavailable',
  'stopped',
])
/** Refusals of the microphone only: the unsent offer is taken back; the client renegotiates without audio. */
const AUDIO_REFUSALS: ReadonlySet<LiveCause> = new Set(['muted', 'collaborators_muted'])

type Devices = { audioinput: MediaDeviceInfo[]; videoinput: MediaDeviceInfo[]; audiooutput: MediaDeviceInfo[] }
const NO_DEVICES: Devices = { audioinput: [], videoinput: [], audiooutput: [] }

async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[])
  const out: Devices = { audioinput: [], videoinput: [], audiooutput: [] }
  for (const d of all) if (d.kind in out && d.deviceId) out[d.kind].push(d)
  return out
}

const constraint = (id: string): MediaTrackConstraints | true => (id ? { deviceId: { exact: id } } : true)

export function Conference({
  state,
  send,
  subscribe,
}: {
  state: LiveState
  send: (m: ChannelClientMessage) => void
  subscribe: (listen: (msg: ChannelServerMessage) => void) => () => void
}) {
  const { t } = useTranslation()
  const audioOnly = state.settings?.audio_only === true
  const self = state.you?.nick ?? null
  const [devices, setDevices] = useState<Devices>(NO_DEVICES)
  const [micId, setMicId] = useState('')
  const [camId, setCamId] = useState('')
  const [speakerId, setSpeakerId] = useState('')
  const [local, setLocal] = useState<LocalTracks | null>(null)
  const [source, setSource] = useState<'camera' | 'screen'>('camera')
  const [transmitting, setTransmitting] = useState(false)
  const [selfMuted, setSelfMuted] = useState(false)
  const [errors, setErrors] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const [remotes, setRemotes] = useState<Record<string, MediaStream>>({})
  const mesh = useRef<Mesh | SfuLink | null>(null)
  const path = state.settings?.media_path ?? 'mesh'
  const localRef = useRef<LocalTracks | null>(null)
  localRef.current = local
  const present = useMemo(() => state.members.map((m) => m.nick), [state.members])
  const presentRef = useRef(present)
  presentRef.current = present
  // A moderator's mute, or "mute collaborators" for whoever is neither the owner nor invited to speak (the party
  // refuses their audio either way; the client does not send it).
  const modMuted = state.you?.muted === true || (state.settings?.mute_collaborators === true && state.you?.role !== 'owner' && state.you?.speaker !== true)

  // One mesh (or, once the party moved the room to the SFU, one SFU link) per identity in the room, with the realm's
  // STUN/TURN servers (from the ticket; none on localhost).
  const iceKey = JSON.stringify(state.iceServers ?? [])
  useEffect(() => {
    if (!self) return
    const m = new (path === 'sfu' ? SfuLink : Mesh)(
      self,
      send,
      (nick, stream) =>
        setRemotes((r) => {
          const next = { ...r }
          if (stream) next[nick] = stream
          else delete next[nick]
          return next
        }),
      JSON.parse(iceKey) as RTCIceServer[],
    )
    mesh.current = m
    return () => {
      m.close()
      mesh.current = null
      setRemotes({})
    }
  }, [self, send, iceKey, path])

  useEffect(() => {
    mesh.current?.sync(present)
  }, [present, path])

  // Through the SFU, whoever presence shows transmitting is pulled.
  useEffect(() => {
    const m = mesh.current
    if (m instanceof SfuLink) m.setTransmitters(state.members)
  }, [state.members, path])

  useEffect(() => {
    mesh.current?.setMaxKbps(state.settings?.max_bitrate_kbps ?? 0)
  }, [state.settings?.max_bitrate_kbps, self, path])

  // Bitrate reduction on loss (the mesh only: through the SFU each sender has one link, left to the browser).
  useEffect(() => {
    const m = mesh.current
    if (m instanceof Mesh) m.setReduceOnLoss(state.settings?.reduce_on_loss === true)
  }, [state.settings?.reduce_on_loss, self, path])

  // What the mesh sends: the microphone unless muted (by a moderator or oneself), the camera or screen unless audio-only.
  const sending = useMemo<LocalTracks | null>(() => {
    if (!transmitting || !local) return null
    const audio = modMuted || selfMuted ? null : local.audio
    const video = audioOnly ? null : local.video
    return audio || video ? { stream: local.stream, audio, video } : null
  }, [transmitting, local, modMuted, selfMuted, audioOnly])
  const sentRef = useRef<{ audio: boolean; video: boolean }>({ audio: false, video: false })
  useEffect(() => {
    mesh.current?.setLocal(sending, presentRef.current)
    const now = { audio: Boolean(sending?.audio), video: Boolean(sending?.video) }
    const was = sentRef.current
    sentRef.current = now
    // Narrowing is told to the party (widening is a new offer, which the mesh sends on its own).
    if ((was.audio && !now.audio) || (was.video && !now.video)) send({ type: 'media', audio: now.audio, video: now.video })
  }, [sending, send, self, path])

  const stopTracks = useCallback((l: LocalTracks | null) => {
    for (const track of l?.stream.getTracks() ?? []) track.stop()
  }, [])

  /** Opens the chosen devices for the preview; each device asked on its own so an error names it. */
  const open = useCallback(
    async (want: { audio: boolean; video: 'camera' | 'screen' | null }, ids = { mic: micId, cam: camId }) => {
      setBusy(true)
      const problems: string[] = []
      let audio: MediaStreamTrack | null = null
      let video: MediaStreamTrack | null = null
      if (want.audio) {
        try {
          audio = (await navigator.mediaDevices.getUserMedia({ audio: constraint(ids.mic) })).getAudioTracks()[0] ?? null
        } catch (err) {
          problems.push(mediaErrorKey('microphone', err))
        }
      }
      if (want.video === 'camera') {
        try {
          video = (await navigator.mediaDevices.getUserMedia({ video: constraint(ids.cam) })).getVideoTracks()[0] ?? null
        } catch (err) {
          problems.push(mediaErrorKey('camera', err))
        }
      } else if (want.video === 'screen') {
        try {
          video = (await navigator.mediaDevices.getDisplayMedia({ video: true })).getVideoTracks()[0] ?? null
        } catch (err) {
          problems.push(mediaErrorKey('screen', err))
        }
      }
      setErrors(problems)
      setBusy(false)
      if (!audio && !video) return null
      const next: LocalTracks = { stream: new MediaStream([audio, video].filter((x): x is MediaStreamTrack => x !== null)), audio, video }
      stopTracks(localRef.current)
      setLocal(next)
      if (want.video) setSource(want.video)
      setDevices(await listDevices())
      return next
    },
    [micId, camId, stopTracks],
  )

  const turnOff = useCallback(() => {
    setTransmitting(false)
    stopTracks(localRef.current)
    setLocal(null)
  }, [stopTracks])

  const stopTransmitting = useCallback(() => {
    setTransmitting(false)
  }, [])

  // The party's word on transmitting: invitations, revocations, refusals; a reconnection or a peer's return.
  const openRef = useRef(open)
  openRef.current = open
  const selfRef = useRef(self)
  selfRef.current = self
  useEffect(() => {
    return subscribe((msg) => {
      const m = mesh.current
      switch (msg.type) {
        case 'welcome':
          // A welcome is a new connection to the party: connections made over the previous one start over. (The
          // view mounts after the first welcome, so counting welcomes here would miss the first reconnection.)
          m?.resetAll(msg.members.map((x) => x.nick))
          return
        case 'joined':
          if (msg.member.nick !== selfRef.current) m?.reset(msg.member.nick, [...presentRef.current, msg.member.nick])
          return
        case 'offer':
        case 'answer':
        case 'ice':
        case 'sfu_pushed':
        case 'sfu_offer':
          void m?.handle(msg)
          return
        case 'speak':
          if (!msg.invite) return setTransmitting(false)
          // Invited to speak: the microphone opens (the preview's devices, if already on).
          if (localRef.current?.audio) return setTransmitting(true)
          void openRef.current({ audio: true, video: null }).then((l) => {
            if (l) setTransmitting(true)
          })
          return
        case 'error':
          // (A refused pull, `ref: 'sfu_pull'`, is about receiving: the transmission goes on.)
          if (msg.ref === SFU_PULL_REF) return
          if (TRANSMIT_REFUSALS.has(msg.cause)) {
            m?.rollback()
            setTransmitting(false)
          } else if (AUDIO_REFUSALS.has(msg.cause) || msg.cause === 'sfu_required') m?.rollback()
          return
        case 'tx_stopped':
          // A transmission limit ran out: the party stopped counting us as a transmitter; we stop sending.
          setTransmitting(false)
          return
        case 'removed':
        case 'ended':
          setTransmitting(false)
          return
      }
    })
  }, [subscribe])

  // Everything stops when the panel goes.
  useEffect(() => () => stopTracks(localRef.current), [stopTracks])

  const changeDevice = async (kind: 'mic' | 'cam', id: string) => {
    if (kind === 'mic') setMicId(id)
    else setCamId(id)
    if (!local) return
    const ids = { mic: kind === 'mic' ? id : micId, cam: kind === 'cam' ? id : camId }
    await open({ audio: Boolean(local.audio) || kind === 'mic', video: local.video ? source : kind === 'cam' ? 'camera' : null }, ids)
  }

  if (state.settings?.text_only) return null
  const others = state.members.filter((m) => m.nick !== self && remotes[m.nick])
  return (
    <section className="card live-conference" aria-labelledby="live-conference-title">
      <h2 id="live-conference-title">{t('live.media.title')}</h2>
      {errors.length ? (
        <div className="alert alert-error" role="alert">
          {errors.map((key) => (
            <p key={key}>{t(key)}</p>
          ))}
        </div>
      ) : null}
      {modMuted && transmitting ? (
        <p className="alert alert-warning" role="status">
          {state.you?.muted ? t('live.media.muted_by_moderator') : t('live.media.collaborators_muted')}
        </p>
      ) : null}
      <div className="live-media-actions" role="group" aria-label={t('live.media.controls')}>
        {!local ? (
          <>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void open({ audio: true, video: audioOnly ? null : 'camera' })}>
              {audioOnly ? t('live.media.turn_on_mic') : t('live.media.turn_on')}
            </button>
            {!audioOnly ? (
              <button type="button" className="btn" disabled={busy} onClick={() => void open({ audio: true, video: 'screen' })}>
                {t('live.media.share_screen')}
              </button>
            ) : null}
          </>
        ) : (
          <>
            {transmitting ? (
              <>
                <button type="button" className="btn" aria-pressed={selfMuted} disabled={!local.audio || modMuted} onClick={() => setSelfMuted((x) => !x)}>
                  {selfMuted ? t('live.media.unmute_me') : t('live.media.mute_me')}
                </button>
                <button type="button" className="btn" onClick={stopTransmitting}>
                  {t('live.media.stop')}
                </button>
              </>
            ) : (
              <button
                type="button"
                className="btn btn-primary"
                disabled={state.status !== 'open'}
                onClick={() => {
                  // Turning transmitting on is the participant's own act: it lifts a moderator's stop (party: `resume`).
                  send({ type: 'resume' })
                  setTransmitting(true)
                }}
              >
                {t('live.media.transmit')}
              </button>
            )}
            <button type="button" className="btn" onClick={turnOff}>
              {t('live.media.turn_off')}
            </button>
          </>
        )}
      </div>
      {local ? (
        <div className="live-media-preview">
          <figure className="live-tile live-tile-self">
            <MediaView stream={local.stream} muted label={t('live.media.preview')} />
            <figcaption>{transmitting ? <span className="badge badge-success">{t('live.media.on_air')}</span> : t('live.media.preview')}</figcaption>
          </figure>
          <div className="live-devices">
            <DeviceSelect
              id="live-mic"
              label={t('live.media.microphone')}
              list={devices.audioinput}
              value={micId}
              onChange={(id) => void changeDevice('mic', id)}
            />
            {!audioOnly && source === 'camera' ? (
              <DeviceSelect
                id="live-cam"
                label={t('live.media.camera')}
                list={devices.videoinput}
                value={camId}
                onChange={(id) => void changeDevice('cam', id)}
              />
            ) : null}
            {typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype ? (
              <DeviceSelect id="live-speaker" label={t('live.media.speaker')} list={devices.audiooutput} value={speakerId} onChange={setSpeakerId} />
            ) : null}
          </div>
        </div>
      ) : null}
      {others.length ? (
        <ul className="live-tiles" aria-label={t('live.media.others')}>
          {others.map((m) => (
            <li key={m.nick} className="live-tile" data-tile={m.nick}>
              {/* Only what the party lets through is heard: a muted participant's (or a stopped one's) audio stays silent here. */}
              <MediaView stream={remotes[m.nick]} sinkId={speakerId} muted={m.muted || !m.media?.audio} label={m.name} />
              <span>
                {m.name}
                {m.media && !m.media.audio ? <span className="badge">{t('live.media.mic_off')}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="live-empty">{t('live.media.nobody')}</p>
      )}
    </section>
  )
}

function DeviceSelect({
  id,
  label,
  list,
  value,
  onChange,
}: {
  id: string
  label: string
  list: MediaDeviceInfo[]
  value: string
  onChange: (id: string) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('live.media.default_device')}</option>
        {list.map((d, i) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label || `${label} ${i + 1}`}
          </option>
        ))}
      </select>
    </div>
  )
}

function MediaView({ stream, muted = false, sinkId = '', label }: { stream: MediaStream; muted?: boolean; sinkId?: string; label: string }) {
  const ref = useRef<HTMLVideoElement>(null)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    if (el.srcObject !== stream) el.srcObject = stream
    void el.play?.()?.catch(() => undefined)
  }, [stream])
  useEffect(() => {
    const el = ref.current as (HTMLVideoElement & { setSinkId?: (id: string) => Promise<void> }) | null
    if (el?.setSinkId && !muted) void el.setSinkId(sinkId).catch(() => undefined)
  }, [sinkId, muted])
  // A live call's stream carries no caption track (the chat is the room's text channel).
  // eslint-disable-next-line jsx-a11y/media-has-caption -- a live WebRTC stream has no caption track; the label names the participant
  return <video ref={ref} autoPlay playsInline muted={muted} aria-label={label} />
}
