import { defineEntity } from '../entity'

/** Task token (seed 001 §3): a code students enter to open a task in a room, with who created it and when. */
export type TaskToken = {
  id: string
  realm: string
  task_id: string
  room_id: string
  room_name: string
  task_title: string
  code: string
  created_by: string
  created_at: string
  /** Set when a newer code replaced this one. */
  revoked_at: string | null
}

/** Codes use letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L). */
export const TOKEN_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
export const TOKEN_LENGTH = 6

export const tokenEntity = defineEntity<TaskToken>({
  name: 'tms_token',
  table: 'tms_token_view',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    task_id: { type: 'text', list: true, filter: 'eq' },
    room_id: { type: 'text', list: true, filter: 'eq' },
    room_name: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    task_title: { type: 'text', search: true, sort: true, list: true },
    code: { type: 'text', search: true, sort: true, list: true },
    created_by: { type: 'text', sort: true, list: true, filter: 'eq' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    revoked_at: { type: 'text', list: true },
  },
  defaultOrder: '-created_at',
})
