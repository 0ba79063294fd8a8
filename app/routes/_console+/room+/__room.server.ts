import type { Card } from '#shared/entities/room-card'
import type { Track } from '#shared/schemas/achievement'
import type { SessionUser } from '~/server/auth.server'
import { extraFieldSpecs, type FieldSpec } from '~/lib/form-fields'
import { apiData, type RealmApi } from '~/server/api.server'
import { categoryTree, parentOptions } from './__category.server'
import { roomFields } from './__room'

/**
 * The room form: its own fields, the category (the realm's tree, each named by its path), the cards and the track
 * (issue 19) when the user may read them (left out otherwise, so a save never clears what the user could not see), then the realm's
 * active extra fields of rooms (seed 002 §3).
 */
export async function roomFormFields(api: RealmApi, user: Pick<SessionUser, 'permissions'>): Promise<FieldSpec[]> {
  const p = user.permissions
  const [extra, categories, cards, tracks] = await Promise.all([
    apiData(api.mas.extra_field.form[':entity'].$get({ param: { entity: 'room' } })),
    p.room_category_list || p.room_category_create || p.room_category_edit ? categoryTree(api) : null,
    p.room_card_list ? apiData(api.entity<Card>('room/card').index.$get({ query: { limit: 1000, order: 'label' } })) : null,
    p.achievement_track_list ? apiData(api.entity<Track>('achievement/track').index.$get({ query: { limit: 1000, order: 'title' } })) : null,
  ])
  const linked: FieldSpec[] = [
    ...(categories
      ? [
          {
            name: 'category_id',
            label: 'resources.room.fields.category_id',
            kind: 'select' as const,
            nullable: true,
            options: parentOptions(categories).map((o) => ({ value: o.id, label: o.label })),
          },
        ]
      : []),
    ...(cards
      ? [
          {
            name: 'cards',
            label: 'resources.room.fields.cards',
            kind: 'checkboxes' as const,
            hint: 'room.cards_hint',
            options: cards.items.map((c) => ({ value: c.id, label: c.label })),
          },
        ]
      : []),
    // The track the room follows (issue 19): the realm's tracks, or none.
    ...(tracks
      ? [
          {
            name: 'track_id',
            label: 'resources.room.fields.track_id',
            kind: 'select' as const,
            nullable: true,
            hint: 'room.track_hint',
            options: tracks.items.map((tr) => ({ value: tr.id, label: tr.title })),
          },
        ]
      : []),
  ]
  return [...roomFields, ...linked, ...extraFieldSpecs(extra.items)]
}
