import type { ChatTranscriptSession, PersonaChatMessage } from '#shared/schemas/persona-chat'
import { CHAT_RETENTION_DEFAULT_DAYS } from '#shared/schemas/persona-chat'
import { runBatch } from './batch'

/**
 * Public persona chat sessions and their transcripts (issue 16 "The public chat"). Every statement is scoped by the
 * realm; a message is stored once per (session, seq), so the party's retried writes count once.
 */

/** The persona as the public chat reads it, with the realm's persona_enabled flag. */
export interface ChatPersonaRow {
  id: string
  name: string
  bio: string
  image_url: string
  language: string
  is_public: number
  speech_type: string
  voice: string | null
  messages: string
  terms_accepted_at: string | null
  persona_enabled: number
}

/** The realm's persona (for the public chat) with its realm's persona_enabled, or null (no such persona, deleted realm). */
export function chatPersona(db: D1Database, realm: string, id: string): Promise<ChatPersonaRow | null> {
  return db
    .prepare(
      `SELECT p.id, p.name, p.bio, p.image_url, p.language, p.is_public, p.speech_type, p.voice, p.messages, p.terms_accepted_at,
              r.persona_enabled
       FROM persona p JOIN realm r ON r.code = p.realm AND r.deleted_at IS NULL WHERE p.realm = ? AND p.id = ?`,
    )
    .bind(realm, id)
    .first<ChatPersonaRow>()
}

/** Whether the persona has a saved call_helper dialog (what the chat hands a visitor to a human with). */
export async function helperDialog(db: D1Database, realm: string, personaId: string): Promise<{ id: string; content: string } | null> {
  return db
    .prepare(
      "SELECT id, content FROM persona_dialog WHERE realm = ? AND persona_id = ? AND type = 'call_helper' AND stage IN ('none', 'to_update', 'to_delete') ORDER BY position, created_at, id LIMIT 1",
    )
    .bind(realm, personaId)
    .first<{ id: string; content: string }>()
}

/** The persona's saved welcome dialog (its answers follow the greeting), or null. */
export async function welcomeDialog(db: D1Database, realm: string, personaId: string): Promise<{ id: string; content: string } | null> {
  return db
    .prepare(
      "SELECT id, content FROM persona_dialog WHERE realm = ? AND persona_id = ? AND type = 'welcome' AND stage IN ('none', 'to_update', 'to_delete') ORDER BY position, created_at, id LIMIT 1",
    )
    .bind(realm, personaId)
    .first<{ id: string; content: string }>()
}

/** The saved dialogs the public chat answers from (what the chat reads is the saved content, never a draft or a staged change). */
export async function savedDialogs(db: D1Database, realm: string, personaId: string): Promise<{ id: string; content: string }[]> {
  const { results } = await db
    .prepare(
      "SELECT id, content FROM persona_dialog WHERE realm = ? AND persona_id = ? AND stage IN ('none', 'to_update', 'to_delete') ORDER BY position, created_at, id",
    )
    .bind(realm, personaId)
    .all<{ id: string; content: string }>()
  return results
}

export interface ChatSessionRow {
  id: string
  realm: string
  persona_id: string
  visitor_nick: string
  visitor_name: string
  language: string
  started_at: string
  last_at: string
  message_count: number
  helper_requested_at: string | null
  redacted_at: string | null
}

export function findChatSession(db: D1Database, realm: string, id: string): Promise<ChatSessionRow | null> {
  return db.prepare('SELECT * FROM persona_chat_session WHERE realm = ? AND id = ?').bind(realm, id).first<ChatSessionRow>()
}

export function insertChatSessionStatement(
  db: D1Database,
  s: { id: string; realm: string; persona_id: string; visitor_nick: string; visitor_name: string; language: string; at: string },
): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO persona_chat_session (id, realm, persona_id, visitor_nick, visitor_name, language, started_at, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(s.id, s.realm, s.persona_id, s.visitor_nick, s.visitor_name, s.language, s.at, s.at)
}

/**
 * Stores a message once (session, seq), and counts it on its session with its time; a call for a human also marks
 * the session. Two statements for one D1 batch.
 */
export function insertChatMessageStatements(db: D1Database, realm: string, sessionId: string, m: PersonaChatMessage): D1PreparedStatement[] {
  const at = new Date(m.at).toISOString()
  return [
    db
      .prepare(
        `UPDATE persona_chat_session SET message_count = message_count + 1, last_at = ?,
           helper_requested_at = CASE WHEN ? THEN COALESCE(helper_requested_at, ?) ELSE helper_requested_at END
         WHERE realm = ? AND id = ? AND NOT EXISTS (SELECT 1 FROM persona_chat_message WHERE session_id = ? AND seq = ?)`,
      )
      .bind(at, m.kind === 'helper' ? 1 : 0, at, realm, sessionId, sessionId, m.seq),
    db
      .prepare(
        `INSERT OR IGNORE INTO persona_chat_message (session_id, seq, realm, role, kind, text, dialog_id, answers, sources, engine, at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM persona_chat_session WHERE realm = ? AND id = ?)`,
      )
      .bind(sessionId, m.seq, realm, m.role, m.kind, m.text, m.dialog_id, JSON.stringify(m.answers), JSON.stringify(m.sources), m.engine, at, realm, sessionId),
  ]
}

interface MessageRow {
  seq: number
  role: 'visitor' | 'persona'
  kind: PersonaChatMessage['kind']
  text: string
  dialog_id: string | null
  answers: string
  sources: string
  engine: string | null
  at: string
}

const messageOf = (r: MessageRow): PersonaChatMessage => ({
  seq: r.seq,
  role: r.role,
  kind: r.kind,
  text: r.text,
  dialog_id: r.dialog_id,
  answers: JSON.parse(r.answers) as PersonaChatMessage['answers'],
  sources: JSON.parse(r.sources) as PersonaChatMessage['sources'],
  engine: r.engine,
  at: Date.parse(r.at),
})

/** A session's messages in order (at most `limit`, from the first). */
export async function listChatMessages(db: D1Database, realm: string, sessionId: string, limit = 1000): Promise<PersonaChatMessage[]> {
  const { results } = await db
    .prepare(
      'SELECT seq, role, kind, text, dialog_id, answers, sources, engine, at FROM persona_chat_message WHERE realm = ? AND session_id = ? ORDER BY seq LIMIT ?',
    )
    .bind(realm, sessionId, limit)
    .all<MessageRow>()
  return results.map(messageOf)
}

/** One stored message (a retried turn answers what was stored), or null. */
export async function chatMessage(db: D1Database, realm: string, sessionId: string, seq: number): Promise<PersonaChatMessage | null> {
  const row = await db
    .prepare('SELECT seq, role, kind, text, dialog_id, answers, sources, engine, at FROM persona_chat_message WHERE realm = ? AND session_id = ? AND seq = ?')
    .bind(realm, sessionId, seq)
    .first<MessageRow>()
  return row ? messageOf(row) : null
}

/**
 * A persona's chat sessions, newest first, a page of `limit` after the cursor (`before`: the last row's
 * started_at and id); `helper` keeps the sessions where the visitor asked for a human.
 */
export async function listChatSessions(
  db: D1Database,
  realm: string,
  personaId: string,
  o: { limit: number; before?: { at: string; id: string }; helper?: boolean },
): Promise<ChatTranscriptSession[]> {
  const where = ['realm = ?', 'persona_id = ?']
  const binds: unknown[] = [realm, personaId]
  if (o.before) {
    where.push('(started_at < ? OR (started_at = ? AND id < ?))')
    binds.push(o.before.at, o.before.at, o.before.id)
  }
  if (o.helper) where.push('helper_requested_at IS NOT NULL')
  const { results } = await db
    .prepare(
      `SELECT id, persona_id, visitor_nick, visitor_name, language, started_at, last_at, message_count, helper_requested_at, redacted_at
       FROM persona_chat_session WHERE ${where.join(' AND ')} ORDER BY started_at DESC, id DESC LIMIT ?`,
    )
    .bind(...binds, o.limit)
    .all<ChatTranscriptSession>()
  return results
}

/** The realm's retention of visitors' chat data (days; the default without a row). */
export async function chatRetention(db: D1Database, realm: string): Promise<{ days: number; updated_at: string | null; updated_by: string | null }> {
  const row = await db
    .prepare('SELECT days, updated_at, updated_by FROM persona_chat_retention WHERE realm = ?')
    .bind(realm)
    .first<{ days: number; updated_at: string; updated_by: string }>()
  return row ?? { days: CHAT_RETENTION_DEFAULT_DAYS, updated_at: null, updated_by: null }
}

export function saveChatRetentionStatement(db: D1Database, realm: string, days: number, by: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO persona_chat_retention (realm, days, updated_at, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (realm) DO UPDATE SET days = excluded.days, updated_at = excluded.updated_at, updated_by = excluded.updated_by',
    )
    .bind(realm, days, at, by)
}

/** Removes a persona's chat sessions (their messages go with them): the persona's delete. */
export function deleteChatSessionsStatement(db: D1Database, realm: string, personaId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM persona_chat_session WHERE realm = ? AND persona_id = ?').bind(realm, personaId)
}

/** Sessions redacted per run of the hourly job (the rest wait for the next run). */
export const REDACT_BATCH = 200

/**
 * Clears the visitor's personal data of sessions quiet for longer than their realm's retention (every realm, the
 * default for realms without AI settings): the visitor's nick and name, and the text of the visitor's messages. The
 * persona's answers and their sources stay (what the persona said, and from where). Answers how many were redacted.
 */
export async function redactExpiredChats(db: D1Database, now = new Date()): Promise<number> {
  const at = now.toISOString()
  const due = `SELECT s.id FROM persona_chat_session s LEFT JOIN persona_chat_retention a ON a.realm = s.realm
     WHERE s.redacted_at IS NULL
       AND s.last_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, '-' || COALESCE(a.days, ${CHAT_RETENTION_DEFAULT_DAYS}) || ' days')
     LIMIT ${REDACT_BATCH}`
  const [, done] = await runBatch(db, [
    db.prepare(`UPDATE persona_chat_message SET text = '' WHERE role = 'visitor' AND session_id IN (${due})`).bind(at),
    db.prepare(`UPDATE persona_chat_session SET visitor_nick = '', visitor_name = '', redacted_at = ?1 WHERE id IN (${due})`).bind(at),
  ])
  return done.meta.changes ?? 0
}
