/**
 * Video links (seed 000 §5, seed 001 §5): accepted only from a video site whose ids have 11 characters (YouTube
 * and its short links), with the start and end times kept.
 */
export interface VideoLink {
  id: string
  /** Seconds. */
  start?: number
  end?: number
}

const HOSTS = /^(?:www\.|m\.|music\.)?(?:youtube\.com|youtube-nocookie\.com)$/i
const ID = /^[A-Za-z0-9_-]{11}$/

/** `90`, `90s`, `1m30s`, `1h2m3s` → seconds; anything else → undefined. */
function seconds(value: string | null): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value)
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value)
  if (!m || !value) return undefined
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)
}

/** The video a link points to, or null when it is not a link to a video site with an 11-character id. */
export function parseVideoUrl(raw: string): VideoLink | null {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  let id: string | null = null
  if (/^(?:www\.)?youtu\.be$/i.test(url.hostname)) id = url.pathname.slice(1).split('/')[0]
  else if (HOSTS.test(url.hostname)) {
    const path = url.pathname.split('/').filter(Boolean)
    if (path[0] === 'watch') id = url.searchParams.get('v')
    else if (['embed', 'shorts', 'live', 'v'].includes(path[0] ?? '')) id = path[1] ?? null
  }
  if (!id || !ID.test(id)) return null
  const start = seconds(url.searchParams.get('start') ?? url.searchParams.get('t'))
  const end = seconds(url.searchParams.get('end'))
  return { id, ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) }
}

/** The privacy-enhanced embed address of a video, starting and ending where the link said. */
export function videoEmbedUrl(video: VideoLink): string {
  const q = new URLSearchParams()
  if (video.start !== undefined) q.set('start', String(video.start))
  if (video.end !== undefined) q.set('end', String(video.end))
  const query = q.toString()
  return `https://www.youtube-nocookie.com/embed/${video.id}${query ? `?${query}` : ''}`
}
