import type { TFunction } from 'i18next'
import type { ChatTranscriptSession } from '#shared/schemas/persona-chat'

/** Sessions a page of the transcripts list (the API's default). */
export const TRANSCRIPT_PAGE = 25

/** The list's URL (`?helper=1&cursor=`) → the API's query; a cursor the API would refuse (400) is dropped (the first page). */
export function transcriptQuery(params: URLSearchParams) {
  const helper = params.get('helper') === '1'
  const raw = params.get('cursor')
  const cursor = raw && /^\d{4}-\d\d-\d\dT[\d:.]+Z~[A-Za-z0-9_-]{16,64}$/.test(raw) ? raw : null
  const query: { helper?: string; cursor?: string } = {}
  if (helper) query.helper = '1'
  if (cursor) query.cursor = cursor
  return { query, helper, cursor }
}

/** Who chatted: the visitor's name and nick, a guest, or nobody any more (the realm's retention cleared it). */
export function visitorLabel(t: TFunction, s: Pick<ChatTranscriptSession, 'visitor_nick' | 'visitor_name' | 'redacted_at'>): string {
  if (s.redacted_at) return t('persona.transcript.redacted')
  if (!s.visitor_nick) return t('persona.transcript.guest')
  return s.visitor_name && s.visitor_name !== s.visitor_nick ? `${s.visitor_name} (${s.visitor_nick})` : s.visitor_nick
}

/** A stored instant (ISO or epoch ms) in the realm's time zone and the page's language. */
export const whenLabel = (at: string | number, locale: string, timeZone: string) =>
  new Date(at).toLocaleString(locale, { timeZone, dateStyle: 'short', timeStyle: 'medium' })
