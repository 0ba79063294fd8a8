import { TrackInput, type Track } from '../schemas/achievement'
import { STAMPS, definePlainEntity } from './define'

/**
 * Track (seed 001 §3): a learning path — title, type 'track', description, tags, public flag (default false) and its
 * ordered items (task models, lessons, surveys), checked in the realm (worker/api/entities.ts RULES
 * `achievement_track`). The list is the generic one; create and edit are app/routes/_console+/track+ (the items).
 */
export const trackEntity = definePlainEntity<Track>({
  name: 'achievement_track',
  table: 'achievement_track',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: TrackInput,
  permission: 'achievement_track',
  api: 'achievement/track',
  route: { id: 'track', path: '/track', param: 'trackId', unsaved: true },
  screens: ['list'],
  labelField: 'title',
  saved: 'tms.saved',
  // A track followed by a room is not deleted (issue 19; the room's track_id).
  inUse: 'track',
  fields: {
    title: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    type: { type: 'text', list: true },
    description: { type: 'text', search: true, list: true, column: { ellipsis: true }, form: { kind: 'textarea' } },
    tags: { type: 'json', list: true, form: { kind: 'list', hint: 'cgs.tags_hint' } },
    is_public: { type: 'bool', list: true, filter: 'eq', searchBar: true, column: { width: 110, format: 'check' }, form: { kind: 'checkbox' } },
    items: { type: 'json' },
    ...STAMPS,
  },
  defaultOrder: 'title',
})
export default trackEntity
