import * as v from 'valibot'

/**
 * Session handover between hosts of the console (realm switch), in three legs bound to the browser that started it
 * (worker/api/session.ts): the values below travel between the console and the realm API.
 */

/** A one-time handover code, a state or a nonce: 256 random bits, base64url (43 characters). */
export const HandoverSecret = v.pipe(v.string('validation.required'), v.regex(/^[\w-]{43}$/, 'validation.id'))

/** The SHA-256 (hex) of a state or a nonce: only hashes are sent ahead and stored. */
export const HandoverHash = v.pipe(v.string('validation.required'), v.regex(/^[0-9a-f]{64}$/, 'validation.id'))

/** POST /mas/session/handover/bind (target host, first arrival): the hash of the nonce it keeps in a cookie. */
export const HandoverBind = v.object({ code: HandoverSecret, nonce_hash: HandoverHash })

/** POST /mas/session/handover/confirm (starting host): the state from its cookie and the nonce hash it was sent. */
export const HandoverConfirm = v.object({ code: HandoverSecret, state: HandoverSecret, nonce_hash: HandoverHash })

/** POST /mas/session/handover/claim (target host): the nonce from its cookie. */
export const HandoverClaim = v.object({ code: HandoverSecret, nonce: HandoverSecret })
