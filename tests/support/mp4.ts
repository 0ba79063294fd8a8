/**
 * Small MP4/MOV files written box by box (ISO/IEC 14496-12), for the upload validation tests (issue 15): an `ftyp`, a
 * `moov` describing the tracks asked for (sample entries with their codec configuration: `avcC`, `hvcC`, `esds`, …;
 * no samples), and an `mdat` of `mdatBytes` filler, so a test sets the size and thus the average bitrate. The `moov`
 * goes after the `mdat` by default (as a camera writes it), which makes the reader walk the top-level boxes.
 */

export type Mp4Track = 'avc' | 'hevc' | 'vp08' | 'aac' | 'he-aac' | 'ac3' | 'opus'
export type Mp4Options = { tracks: Mp4Track[]; seconds: number; mdatBytes?: number; quicktime?: boolean; moovFirst?: boolean }

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const u16 = (n: number) => [(n >>> 8) & 255, n & 255]
const zeros = (n: number) => new Array<number>(n).fill(0)
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))
const box = (type: string, ...payload: number[][]) => {
  const body = payload.flat()
  return [...u32(8 + body.length), ...ascii(type), ...body]
}
const full = (type: string, version: number, flags: number, ...payload: number[][]) => box(type, [version, ...u32(flags).slice(1)], ...payload)
const MATRIX = [...u32(0x10000), ...zeros(12), ...u32(0x10000), ...zeros(12), ...u32(0x40000000)]
const TIMESCALE = 1000

function visualEntry(type: string, config: number[]) {
  return box(type, zeros(6), u16(1), zeros(16), u16(320), u16(240), u32(0x480000), u32(0x480000), zeros(4), u16(1), zeros(32), u16(0x18), u16(0xffff), config)
}

function audioEntry(type: string, config: number[]) {
  return box(type, zeros(6), u16(1), zeros(8), u16(2), u16(16), zeros(4), u32(48000 * 65536), config)
}

/** An `esds` for MPEG-4 audio of the given object type (2: AAC LC, 5: HE-AAC/SBR). */
function esds(objectType: number) {
  const dsi = [5, 2, (objectType << 3) | 1, 0x90]
  const dcd = [4, 13 + dsi.length, 0x40, 0x15, ...zeros(3), ...u32(128000), ...u32(128000), ...dsi]
  const sl = [6, 1, 2]
  const es = [3, 3 + dcd.length + sl.length, ...u16(1), 0, ...dcd, ...sl]
  return full('esds', 0, 0, es)
}

function sampleEntry(track: Mp4Track): number[] {
  switch (track) {
    case 'avc':
      return visualEntry('avc1', box('avcC', [1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0x00]))
    case 'hevc':
      return visualEntry('hvc1', box('hvcC', [1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0x5d, 0xf0, 0, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f, 0]))
    case 'vp08':
      return visualEntry('vp08', full('vpcC', 1, 0, [0, 10, 0x80, 1, 1, 1, 0, 0]))
    case 'aac':
      return audioEntry('mp4a', esds(2))
    case 'he-aac':
      return audioEntry('mp4a', esds(5))
    case 'ac3':
      return audioEntry('ac-3', box('dac3', [0x10, 0x3d, 0xe0]))
    case 'opus':
      return audioEntry('Opus', box('dOps', [0, 2, ...u16(312), ...u32(48000), 0, 0, 0]))
  }
}

function trak(track: Mp4Track, id: number, seconds: number) {
  const video = ['avc', 'hevc', 'vp08'].includes(track)
  const duration = Math.round(seconds * TIMESCALE)
  const tkhd = full(
    'tkhd',
    0,
    3,
    zeros(8),
    u32(id),
    zeros(4),
    u32(duration),
    zeros(8),
    zeros(4),
    u16(video ? 0 : 0x100),
    zeros(2),
    MATRIX,
    u32(video ? 320 << 16 : 0),
    u32(video ? 240 << 16 : 0),
  )
  const mdhd = full('mdhd', 0, 0, zeros(8), u32(TIMESCALE), u32(duration), u16(0x55c4), zeros(2))
  const hdlr = full('hdlr', 0, 0, zeros(4), ascii(video ? 'vide' : 'soun'), zeros(12), [0])
  const header = video ? full('vmhd', 0, 1, zeros(8)) : full('smhd', 0, 0, zeros(4))
  const dinf = box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1)))
  const stbl = box(
    'stbl',
    full('stsd', 0, 0, u32(1), sampleEntry(track)),
    full('stts', 0, 0, u32(0)),
    full('stsc', 0, 0, u32(0)),
    full('stsz', 0, 0, u32(0), u32(0)),
    full('stco', 0, 0, u32(0)),
  )
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', header, dinf, stbl)))
}

/** An MP4 (or, with `quicktime`, a MOV) file with the given tracks, duration and `mdat` filler. */
export function mp4Fixture({ tracks, seconds, mdatBytes = 1024, quicktime = false, moovFirst = false }: Mp4Options): Uint8Array {
  const ftyp = quicktime ? box('ftyp', ascii('qt  '), u32(0x200), ascii('qt  ')) : box('ftyp', ascii('isom'), u32(0x200), ascii('isomiso2avc1mp41'))
  const duration = Math.round(seconds * TIMESCALE)
  const mvhd = full('mvhd', 0, 0, zeros(8), u32(TIMESCALE), u32(duration), u32(0x10000), u16(0x100), zeros(10), MATRIX, zeros(24), u32(tracks.length + 1))
  const moov = box('moov', mvhd, ...tracks.map((t, i) => trak(t, i + 1, seconds)))
  const head = new Uint8Array([...ftyp, ...(moovFirst ? moov : [])])
  const tail = new Uint8Array(moovFirst ? [] : moov)
  const out = new Uint8Array(head.length + 8 + mdatBytes + tail.length)
  out.set(head, 0)
  out.set([...u32(8 + mdatBytes), ...ascii('mdat')], head.length)
  // Filler that is not all zeros (a run of zeros could pass for box headers).
  for (let i = 0; i < mdatBytes; i += 4096) out[head.length + 8 + i] = 0x5a
  out.set(tail, head.length + 8 + mdatBytes)
  return out
}
