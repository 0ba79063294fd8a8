import { CAPTCHA_TYPES, type CaptchaType } from '#shared/schemas/realm'
import { powSolves } from '#shared/pow'
import { hmacSign, hmacVerify, randomToken, sha256Hex } from '../lib/crypto'
import { CAPTCHA_ALPHABET } from '../lib/captcha/font'
import { IMAGE_HEIGHT, IMAGE_WIDTH, renderCaptchaImage } from '../lib/captcha/image'
import { pick } from '../lib/captcha/random'
import { normalizeTextAnswer, textQuestion } from '../lib/captcha/text'
import { apiError } from '../lib/errors'
import { signingKey } from './keys'

/** The kind of captcha a realm asks for (its `captcha_type`; proof of work when the stored value is unknown). */
export function realmCaptchaType(realm: Record<string, unknown>): CaptchaType {
  return (CAPTCHA_TYPES as readonly unknown[]).includes(realm.captcha_type) ? (realm.captcha_type as CaptchaType) : 'pow'
}

/** A challenge lives 5 minutes; the verification token it earns lives 10 (time to type a password). */
export const CHALLENGE_TTL_MS = 5 * 60_000
export const TOKEN_TTL_MS = 10 * 60_000
export const IMAGE_TEXT_LENGTH = 5

export interface Challenge {
  challengeId: string
  type: CaptchaType
  expires_at: string
  data: { question: string } | { image: string; width: number; height: number; length: number } | { difficulty: number }
}

const now = () => Date.now()
const iso = (ms: number) => new Date(ms).toISOString()

/** Expired challenges and tokens are pruned a few at a time as new ones are issued. */
async function prune(db: D1Database): Promise<void> {
  const cutoff = iso(now() - 60 * 60_000)
  await db.batch([
    db.prepare('DELETE FROM captcha_challenge WHERE rowid IN (SELECT rowid FROM captcha_challenge WHERE expires_at < ? LIMIT 50)').bind(cutoff),
    db.prepare('DELETE FROM captcha_token WHERE rowid IN (SELECT rowid FROM captcha_token WHERE expires_at < ? LIMIT 50)').bind(cutoff),
  ])
}

/**
 * A new challenge for a visitor (identified by their session key) of a realm. Text and image challenges are stored
 * with the hash of their answer; proof-of-work challenges are stateless: `p1.<realm>.<expiry>.<difficulty>.<salt>.<hmac>`,
 * signed together with the session key's hash, and recorded only when verified.
 */
export async function createChallenge(
  db: D1Database,
  realm: string,
  opts: { type: CaptchaType; sessionKey: string; lang: string; difficulty: number },
): Promise<Challenge> {
  const expires = now() + CHALLENGE_TTL_MS
  if (opts.type === 'pow') {
    const sessionKeyHash = await sha256Hex(opts.sessionKey)
    const body = `p1.${realm}.${expires}.${opts.difficulty}.${randomToken(12)}`
    const sig = await hmacSign(await signingKey(db, 'captcha-pow'), `${body}.${sessionKeyHash}`)
    return { challengeId: `${body}.${sig}`, type: 'pow', expires_at: iso(expires), data: { difficulty: opts.difficulty } }
  }
  let answer: string
  let data: Challenge['data']
  if (opts.type === 'text') {
    const q = textQuestion(opts.lang)
    answer = q.answer
    data = { question: q.question }
  } else {
    answer = Array.from({ length: IMAGE_TEXT_LENGTH }, () => pick([...CAPTCHA_ALPHABET])).join('')
    data = { image: await renderCaptchaImage(answer), width: IMAGE_WIDTH, height: IMAGE_HEIGHT, length: IMAGE_TEXT_LENGTH }
  }
  const challengeId = await storeChallenge(db, realm, opts.type, opts.sessionKey, answer, expires)
  await prune(db)
  return { challengeId, type: opts.type, expires_at: iso(expires), data }
}

/** Stores a text or image challenge with the hash of its answer; answers the new challenge id. */
export async function storeChallenge(
  db: D1Database,
  realm: string,
  type: Exclude<CaptchaType, 'pow'>,
  sessionKey: string,
  answer: string,
  expires: number,
): Promise<string> {
  const challengeId = randomToken(24)
  const idHash = await sha256Hex(challengeId)
  await db
    .prepare('INSERT INTO captcha_challenge (id_hash, realm, type, session_key_hash, answer_hash, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(idHash, realm, type, await sha256Hex(sessionKey), await sha256Hex(`${idHash}:${normalize(type, answer)}`), iso(expires))
    .run()
  return challengeId
}

function normalize(type: CaptchaType, answer: string): string {
  return type === 'text' ? normalizeTextAnswer(answer) : answer.replace(/\s+/g, '').toUpperCase()
}

const notFound = () => apiError(400, 'challenge_not_found', 'The challenge does not exist.', 'payload.challengeId')
const expired = () => apiError(400, 'challenge_expired', 'The challenge has expired; ask for a new one.', 'payload.challengeId')
const used = () => apiError(400, 'challenge_used', 'The challenge was already used; ask for a new one.', 'payload.challengeId')
const wrong = () => apiError(400, 'verification_failed', 'Wrong answer', 'payload')

/**
 * Checks an answer (text, image) or a solution (pow). Every challenge is spent by its first verification, right
 * or wrong; success answers a single-use verification token bound to the realm and the session key.
 */
export async function verifyChallenge(
  db: D1Database,
  realm: string,
  opts: { type: CaptchaType; sessionKey: string; challengeId: string; answer: string },
): Promise<{ token: string; expires_at: string }> {
  const sessionKeyHash = await sha256Hex(opts.sessionKey)
  const idHash = await sha256Hex(opts.challengeId)
  const at = iso(now())
  if (opts.type === 'pow') {
    const parts = opts.challengeId.split('.')
    if (parts.length !== 6 || parts[0] !== 'p1' || parts[1] !== realm) throw notFound()
    const [, , expiry, difficulty] = parts
    const valid = await hmacVerify(await signingKey(db, 'captcha-pow'), `${parts.slice(0, 5).join('.')}.${sessionKeyHash}`, parts[5])
    if (!valid) throw notFound()
    if (Number(expiry) <= now()) throw expired()
    const spent = await db
      .prepare(
        `INSERT INTO captcha_challenge (id_hash, realm, type, session_key_hash, expires_at, used_at) VALUES (?, ?, 'pow', ?, ?, ?)
         ON CONFLICT (id_hash) DO NOTHING`,
      )
      .bind(idHash, realm, sessionKeyHash, iso(Number(expiry)), at)
      .run()
    if (!spent.meta.changes) throw used()
    if (!/^\d{1,10}$/.test(opts.answer) || !(await powSolves(opts.challengeId, opts.answer, Number(difficulty)))) throw wrong()
  } else {
    const row = await db
      .prepare('SELECT type, session_key_hash, answer_hash, expires_at, used_at FROM captcha_challenge WHERE id_hash = ? AND realm = ?')
      .bind(idHash, realm)
      .first<{ type: string; session_key_hash: string; answer_hash: string; expires_at: string; used_at: string | null }>()
    if (!row || row.type !== opts.type || row.session_key_hash !== sessionKeyHash) throw notFound()
    if (row.used_at) throw used()
    if (row.expires_at <= at) throw expired()
    const spent = await db.prepare('UPDATE captcha_challenge SET used_at = ? WHERE id_hash = ? AND used_at IS NULL').bind(at, idHash).run()
    if (!spent.meta.changes) throw used()
    if ((await sha256Hex(`${idHash}:${normalize(opts.type, opts.answer)}`)) !== row.answer_hash) throw wrong()
  }
  const token = randomToken(32)
  const expires = iso(now() + TOKEN_TTL_MS)
  await db
    .prepare('INSERT INTO captcha_token (token_hash, realm, type, session_key_hash, expires_at) VALUES (?, ?, ?, ?, ?)')
    .bind(await sha256Hex(token), realm, opts.type, sessionKeyHash, expires)
    .run()
  return { token, expires_at: expires }
}

/**
 * Spends a verification token; false when it is unknown, of another realm or visitor, earned by another kind of
 * challenge than `type` (the realm's kind now), expired or already used.
 */
export async function consumeCaptchaToken(db: D1Database, realm: string, token: string, sessionKey: string, type: CaptchaType): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE captcha_token SET used_at = ? WHERE token_hash = ? AND realm = ? AND type = ? AND session_key_hash = ? AND used_at IS NULL AND expires_at > ?`,
    )
    .bind(iso(now()), await sha256Hex(token), realm, type, await sha256Hex(sessionKey), iso(now()))
    .run()
  return (res.meta.changes ?? 0) === 1
}
