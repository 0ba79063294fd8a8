import * as v from 'valibot'
import { HostName } from './realm-settings'
import { Email } from './user'

/** Metaverse rooms are a plain entity: declared in app/shared/entities/metaverse-room.ts. */
export { MetaverseRoomCreate, MetaverseRoomUpdate, metaverseRoomEntity, type MetaverseRoom } from '../entities/metaverse-room'

/** PUT /room/metaverse/token/generate: both a host and an e-mail are needed (seed 002 §5). */
export const MetaverseTokenRequest = v.object({
  host: HostName,
  email: v.pipe(Email, v.minLength(1, 'validation.required')),
})

/** Answer of the token call: `token` is two base64url parts, the claims and their HMAC-SHA256 (seed 000 §5). */
export interface MetaverseToken {
  token: string
  expires_at: string
  host: string
  email: string
}
