import * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { Name, fieldPath } from '../schemas/tms/common'
import { STAMPS, definePlainEntity } from './define'

/** A card opens a room of the app (`room`: an in-app path or a room's address) or a web page (`link`). */
export const CARD_TYPES = ['room', 'link'] as const

/**
 * The placeholders a card's URL may hold, substituted (URL-encoded) when the card is opened
 * (`GET /api/room/card/{id}/open?room=`): `{nick}` the signed-in user's nick, `{name}` their name, `{room}` the id of
 * the room the card is opened in, `{room_name}` its name, `{realm}` the realm's code, `{lang}` the user's language
 * (pt-BR, en-US, es-ES). Any other `{…}` is refused when the card is saved.
 */
export const CARD_PLACEHOLDERS = ['nick', 'name', 'room', 'room_name', 'realm', 'lang'] as const
export type CardPlaceholder = (typeof CARD_PLACEHOLDERS)[number]

const PLACEHOLDER = /\{([^{}]*)\}/g

/** The placeholders named in a URL, in order, repeats kept. */
export const placeholdersOf = (url: string): string[] => [...url.matchAll(PLACEHOLDER)].map((m) => m[1])

/** The first placeholder of the URL that is not one of CARD_PLACEHOLDERS (or a stray brace), or undefined. */
export function unknownPlaceholder(url: string): string | undefined {
  const bad = placeholdersOf(url).find((p) => !(CARD_PLACEHOLDERS as readonly string[]).includes(p))
  if (bad !== undefined) return `{${bad}}`
  const rest = url.replace(PLACEHOLDER, '')
  return /[{}]/.test(rest) ? (rest.match(/[{}]/)?.[0] ?? undefined) : undefined
}

/** The URL with every placeholder replaced by its value, URL-encoded. */
export const resolveCardUrl = (url: string, values: Record<CardPlaceholder, string>): string =>
  url.replace(PLACEHOLDER, (_, p: CardPlaceholder) => encodeURIComponent(values[p] ?? ''))

/** Whether a URL (placeholders filled with a sample) is an http(s) address, or for a room card also an in-app path. */
function urlShapeOk(url: string, type: (typeof CARD_TYPES)[number]): boolean {
  const sample = url.replace(PLACEHOLDER, 'x')
  if (type === 'room' && sample.startsWith('/') && !sample.startsWith('//')) return true
  try {
    const u = new URL(sample)
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== ''
  } catch {
    return false
  }
}

const Text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, 'validation.max_length')), '')
const IconUrl = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(1000, 'validation.max_length'),
    v.check((s) => s === '' || /^(https?:\/\/|\/)[^\s]+$/.test(s), 'validation.card.icon_url'),
  ),
  '',
)

/** Card (seed 002 §3 "Card"): type, label and label id, icon and dark icon with their ids, URL with placeholders. */
export const CardInput = v.pipe(
  v.object({
    type: v.optional(v.picklist(CARD_TYPES, 'validation.picklist'), 'link'),
    label: Name(1, 80),
    /** The label's translation id in the apps (free text, e.g. `card.library`). */
    label_id: Text(80),
    icon: IconUrl,
    icon_id: Text(80),
    dark_icon: IconUrl,
    dark_icon_id: Text(80),
    url: v.pipe(
      v.string('validation.required'),
      v.trim(),
      v.minLength(1, 'validation.required'),
      v.maxLength(1000, 'validation.max_length'),
      v.check((s) => unknownPlaceholder(s) === undefined, 'validation.card.placeholder'),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const c = dataset.value
    if (!urlShapeOk(c.url, c.type)) addIssue({ message: `validation.card.url_${c.type}`, path: fieldPath(c, 'url') })
  }),
)
export type CardInput = v.InferOutput<typeof CardInput>
export type Card = CardInput & Stamped

const TYPES = CARD_TYPES.map((t) => ({ value: t, label: `resources.room_card.types.${t}` }))

export const roomCardEntity = definePlainEntity<Card>({
  name: 'room_card',
  table: 'room_card',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: CardInput,
  permission: 'room_card',
  api: 'room/card',
  route: { id: 'room.card', path: '/room/card', param: 'card', unsaved: true },
  labelField: 'label',
  saved: 'tms.saved',
  inUse: 'room_card',
  fields: {
    label: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    type: {
      type: 'text',
      sort: true,
      list: true,
      filter: 'eq',
      searchBar: true,
      column: { width: 130, format: 'option' },
      form: { kind: 'select', options: TYPES, required: true },
    },
    label_id: { type: 'text', list: true, form: { kind: 'text' } },
    url: { type: 'text', search: true, list: true, column: { ellipsis: true }, form: { kind: 'text', required: true, hint: 'room_card.url_hint' } },
    icon: { type: 'text', list: true, form: { kind: 'text', hint: 'room_card.icon_hint' } },
    icon_id: { type: 'text', list: true, form: { kind: 'text' } },
    dark_icon: { type: 'text', list: true, form: { kind: 'text', hint: 'room_card.icon_hint' } },
    dark_icon_id: { type: 'text', list: true, form: { kind: 'text' } },
    ...STAMPS,
  },
  defaultOrder: 'label',
})
export default roomCardEntity
