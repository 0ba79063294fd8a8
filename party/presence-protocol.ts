import * as v from 'valibot'

/** Wire protocol of the presence party: who of a realm's staff is in the console now, and on which page. */
export const PresenceClientMessage = v.variant('type', [v.object({ type: v.literal('here'), path: v.pipe(v.string(), v.startsWith('/'), v.maxLength(300)) })])
export type PresenceClientMessage = v.InferOutput<typeof PresenceClientMessage>

export interface PresenceMember {
  id: string
  nick: string
  name: string
  path: string
  since: number
}

export type PresenceServerMessage = { type: 'presence'; members: PresenceMember[] } | { type: 'error'; cause: 'invalid_message'; message: string }
