import type { DialogInput, ItemStage, KnowledgeItem, KnowledgeStatus, KnowledgeType, SpeechType } from '#shared/schemas/persona'
import type { Chunk } from '../ai/retrieval'

/**
 * Personas, their dialogs, knowledge items and knowledge chunks (issue 16 item 2). Every statement is scoped by the
 * realm and the persona. Items are staged (seed 002 §4): `saveItemsStatements` applies the stages of a persona's
 * dialogs and knowledge in one batch.
 */

export interface PersonaHead {
  id: string
  name: string
  language: string
  speech_type: SpeechType
  is_public: number
  terms_accepted_at: string | null
  messages: string
}

/** The persona's head (what its items' rules need), or null. */
export function findPersona(db: D1Database, realm: string, id: string): Promise<PersonaHead | null> {
  return db
    .prepare('SELECT id, name, language, speech_type, is_public, terms_accepted_at, messages FROM persona WHERE realm = ? AND id = ?')
    .bind(realm, id)
    .first<PersonaHead>()
}

/** Records the terms agreement (who and when). */
export function acceptTermsStatement(db: D1Database, realm: string, id: string, nick: string, at: string): D1PreparedStatement {
  return db.prepare('UPDATE persona SET terms_accepted_at = ?, terms_accepted_by = ? WHERE realm = ? AND id = ?').bind(at, nick, realm, id)
}

/** Stamps the persona as changed (a save of its items). */
export function touchPersonaStatement(db: D1Database, realm: string, id: string, nick: string, at: string): D1PreparedStatement {
  return db.prepare('UPDATE persona SET updated_at = ?, updated_by = ? WHERE realm = ? AND id = ?').bind(at, nick, realm, id)
}

/** How many of the persona's knowledge items are still pending (a persona with one cannot be deleted). */
export async function pendingKnowledgeCount(db: D1Database, realm: string, personaId: string): Promise<number> {
  const row = await db
    .prepare("SELECT COUNT(*) AS n FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND status = 'pending'")
    .bind(realm, personaId)
    .first<{ n: number }>()
  return row?.n ?? 0
}

/** The R2 keys of the persona's knowledge files (removed from the bucket once the rows are gone). */
export async function knowledgeFileKeys(db: D1Database, realm: string, personaId: string, onlyToDelete = false): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT file_key FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND file_key <> ''${onlyToDelete ? " AND stage = 'to_delete'" : ''}`)
    .bind(realm, personaId)
    .all<{ file_key: string }>()
  return results.map((r) => r.file_key)
}

// ---------------------------------------------------------------------------------------------------------------
// Dialogs

export interface DialogRow {
  id: string
  persona_id: string
  type: string
  content: string
  staged: string | null
  stage: ItemStage
  position: number
  created_at: string
  updated_at: string
  updated_by: string
}

/** The persona's dialogs in their order. */
export async function listDialogRows(db: D1Database, realm: string, personaId: string): Promise<DialogRow[]> {
  const { results } = await db
    .prepare(
      'SELECT id, persona_id, type, content, staged, stage, position, created_at, updated_at, updated_by FROM persona_dialog WHERE realm = ? AND persona_id = ? ORDER BY position, created_at, id',
    )
    .bind(realm, personaId)
    .all<DialogRow>()
  return results
}

export function insertDialogStatement(
  db: D1Database,
  realm: string,
  personaId: string,
  id: string,
  content: DialogInput,
  position: number,
  nick: string,
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO persona_dialog (id, realm, persona_id, type, content, stage, position, created_at, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?)",
    )
    .bind(id, realm, personaId, content.type, JSON.stringify(content), position, at, at, nick)
}

/** A draft's content changed in place (it is still new). */
export function updateDraftDialogStatement(db: D1Database, realm: string, personaId: string, id: string, content: DialogInput, nick: string, at: string) {
  return db
    .prepare(
      "UPDATE persona_dialog SET type = ?, content = ?, updated_at = ?, updated_by = ? WHERE realm = ? AND persona_id = ? AND id = ? AND stage = 'draft'",
    )
    .bind(content.type, JSON.stringify(content), at, nick, realm, personaId, id)
}

/** A saved dialog's change, staged (to_update) until the save. */
export function stageDialogUpdateStatement(db: D1Database, realm: string, personaId: string, id: string, content: DialogInput, nick: string, at: string) {
  return db
    .prepare(
      "UPDATE persona_dialog SET staged = ?, stage = 'to_update', updated_at = ?, updated_by = ? WHERE realm = ? AND persona_id = ? AND id = ? AND stage IN ('none', 'to_update')",
    )
    .bind(JSON.stringify(content), at, nick, realm, personaId, id)
}

/** A draft removed: it was never saved, so it simply goes. */
export function deleteDraftDialogStatement(db: D1Database, realm: string, personaId: string, id: string) {
  return db.prepare("DELETE FROM persona_dialog WHERE realm = ? AND persona_id = ? AND id = ? AND stage = 'draft'").bind(realm, personaId, id)
}

/** A saved dialog removed: to_delete until the save (its staged change dropped). */
export function stageDialogDeleteStatement(db: D1Database, realm: string, personaId: string, id: string, nick: string, at: string) {
  return db
    .prepare(
      "UPDATE persona_dialog SET stage = 'to_delete', staged = NULL, updated_at = ?, updated_by = ? WHERE realm = ? AND persona_id = ? AND id = ? AND stage IN ('none', 'to_update')",
    )
    .bind(at, nick, realm, personaId, id)
}

// ---------------------------------------------------------------------------------------------------------------
// Knowledge

const KNOWLEDGE_COLUMNS =
  'id, persona_id, type, source, COALESCE(staged_title, title) AS title, size, status, reason, chunk_count, stage, created_at, created_by, processed_at'

export interface KnowledgeRow extends KnowledgeItem {
  file_key: string
  started_at: string | null
  attempts: number
}

/** The persona's knowledge items as the editor sees them (a pending title shown), oldest first. */
export async function listKnowledge(db: D1Database, realm: string, personaId: string): Promise<KnowledgeItem[]> {
  const { results } = await db
    .prepare(`SELECT ${KNOWLEDGE_COLUMNS} FROM persona_knowledge WHERE realm = ? AND persona_id = ? ORDER BY created_at, rowid`)
    .bind(realm, personaId)
    .all<KnowledgeItem>()
  return results
}

/** One knowledge item of the persona, with what processing needs. */
export function getKnowledge(db: D1Database, realm: string, personaId: string, id: string): Promise<KnowledgeRow | null> {
  return db
    .prepare(`SELECT ${KNOWLEDGE_COLUMNS}, file_key, started_at, attempts FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND id = ?`)
    .bind(realm, personaId, id)
    .first<KnowledgeRow>()
}

/** The items counted against the limit (lessons and items to delete are not) and the `type:source` keys of those kept. */
export async function knowledgeCensus(db: D1Database, realm: string, personaId: string): Promise<{ counted: number; keys: Set<string> }> {
  const { results } = await db
    .prepare("SELECT type, source FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND stage <> 'to_delete'")
    .bind(realm, personaId)
    .all<{ type: KnowledgeType; source: string }>()
  return {
    counted: results.filter((r) => r.type !== 'lesson').length,
    keys: new Set(results.map((r) => knowledgeKey(r.type, r.source))),
  }
}

/** What makes two items duplicates: the same type and name (a file's name case-insensitively; a URL as written). */
export const knowledgeKey = (type: KnowledgeType, source: string) => `${type}:${type === 'url' ? source : source.toLowerCase()}`

export interface NewKnowledge {
  id: string
  type: KnowledgeType
  source: string
  title: string
  file_key: string
  size: number
  status: KnowledgeStatus
}

export function insertKnowledgeStatement(db: D1Database, realm: string, personaId: string, item: NewKnowledge, nick: string, at: string) {
  return db
    .prepare(
      `INSERT INTO persona_knowledge (id, realm, persona_id, type, source, title, file_key, size, status, stage, created_at, created_by, updated_at, processed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?)`,
    )
    .bind(
      item.id,
      realm,
      personaId,
      item.type,
      item.source,
      item.title,
      item.file_key,
      item.size,
      item.status,
      at,
      nick,
      at,
      item.status === 'pending' ? null : at,
    )
}

/** A title change: in place for a draft, staged (to_update) for a saved item. */
export function retitleKnowledgeStatement(db: D1Database, realm: string, personaId: string, id: string, title: string, at: string) {
  return db
    .prepare(
      `UPDATE persona_knowledge SET
         title = CASE WHEN stage = 'draft' THEN ?1 ELSE title END,
         staged_title = CASE WHEN stage = 'draft' THEN NULL ELSE ?1 END,
         stage = CASE WHEN stage = 'draft' THEN 'draft' ELSE 'to_update' END,
         updated_at = ?2
       WHERE realm = ?3 AND persona_id = ?4 AND id = ?5 AND stage <> 'to_delete'`,
    )
    .bind(title, at, realm, personaId, id)
}

/** A draft item removed (with its chunks): it was never saved. Pending items are never removed (the caller refuses). */
export function deleteDraftKnowledgeStatements(db: D1Database, realm: string, personaId: string, id: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM persona_knowledge_chunk WHERE realm = ? AND persona_id = ? AND item_id = ?').bind(realm, personaId, id),
    db
      .prepare("DELETE FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND id = ? AND stage = 'draft' AND status <> 'pending'")
      .bind(realm, personaId, id),
  ]
}

/** A saved item removed: to_delete until the save. */
export function stageKnowledgeDeleteStatement(db: D1Database, realm: string, personaId: string, id: string, at: string) {
  return db
    .prepare(
      "UPDATE persona_knowledge SET stage = 'to_delete', staged_title = NULL, updated_at = ? WHERE realm = ? AND persona_id = ? AND id = ? AND stage IN ('none', 'to_update') AND status <> 'pending'",
    )
    .bind(at, realm, personaId, id)
}

/**
 * Claims a pending item for a processing attempt: only when it is pending and no attempt started after `staleBefore`
 * (so two runners never process it at once, and an attempt that died is taken over). True when claimed.
 */
export async function claimKnowledge(db: D1Database, realm: string, id: string, at: string, staleBefore: string): Promise<boolean> {
  const res = await db
    .prepare(
      "UPDATE persona_knowledge SET started_at = ?, attempts = attempts + 1 WHERE realm = ? AND id = ? AND status = 'pending' AND (started_at IS NULL OR started_at < ?)",
    )
    .bind(at, realm, id, staleBefore)
    .run()
  return (res.meta.changes ?? 0) > 0
}

/** Chunks written per statement (json_each over a JSON array: one statement, not one per chunk). */
const CHUNKS_PER_STATEMENT = 100

/** The statements storing an item's chunks (replacing any) and marking it processed. */
export function processedStatements(
  db: D1Database,
  realm: string,
  personaId: string,
  itemId: string,
  chunks: { position: number; at: number; text: string }[],
  at: string,
): D1PreparedStatement[] {
  const out = [db.prepare('DELETE FROM persona_knowledge_chunk WHERE realm = ? AND item_id = ?').bind(realm, itemId)]
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_STATEMENT) {
    const part = chunks.slice(i, i + CHUNKS_PER_STATEMENT).map((c) => [`${itemId}-${c.position}`, c.position, c.at, c.text])
    out.push(
      db
        .prepare(
          `INSERT INTO persona_knowledge_chunk (id, realm, persona_id, item_id, position, at, text)
           SELECT json_extract(value, '$[0]'), ?1, ?2, ?3, json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?4)`,
        )
        .bind(realm, personaId, itemId, JSON.stringify(part)),
    )
  }
  out.push(
    db
      .prepare("UPDATE persona_knowledge SET status = 'processed', reason = NULL, chunk_count = ?, processed_at = ?, updated_at = ? WHERE realm = ? AND id = ?")
      .bind(chunks.length, at, at, realm, itemId),
  )
  return out
}

/** Marks an item failed with its reason (its chunks, if any, removed). */
export function failedStatements(db: D1Database, realm: string, itemId: string, reason: string, at: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM persona_knowledge_chunk WHERE realm = ? AND item_id = ?').bind(realm, itemId),
    db
      .prepare("UPDATE persona_knowledge SET status = 'failed', reason = ?, chunk_count = 0, processed_at = ?, updated_at = ? WHERE realm = ? AND id = ?")
      .bind(reason, at, at, realm, itemId),
  ]
}

/** A failed item sent back to pending for another attempt. */
export function retryKnowledgeStatement(db: D1Database, realm: string, personaId: string, id: string, at: string) {
  return db
    .prepare(
      "UPDATE persona_knowledge SET status = 'pending', reason = NULL, started_at = NULL, updated_at = ? WHERE realm = ? AND persona_id = ? AND id = ? AND status = 'failed'",
    )
    .bind(at, realm, personaId, id)
}

/** Ids of the persona's pending items whose attempt never started or started before `staleBefore`. */
export async function stalePending(db: D1Database, realm: string, personaId: string, staleBefore: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT id FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND status = 'pending' AND (started_at IS NULL OR started_at < ?)")
    .bind(realm, personaId, staleBefore)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}

/**
 * The persona's knowledge as a retrieval corpus: the chunks of its processed items, each with its item's title and
 * page or slide. `drafts` includes unsaved items (the editor's chat test); the public chat reads saved items only
 * (those to delete still count until the save removes them).
 */
export async function knowledgeCorpus(db: D1Database, realm: string, personaId: string, drafts = false): Promise<Chunk[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.item_id, c.at, c.text, k.type, ${drafts ? 'COALESCE(k.staged_title, k.title)' : 'k.title'} AS title
       FROM persona_knowledge_chunk c JOIN persona_knowledge k ON k.id = c.item_id AND k.realm = c.realm
       WHERE c.realm = ? AND c.persona_id = ? AND k.status = 'processed' AND k.stage ${drafts ? "<> 'to_delete'" : "<> 'draft'"}
       ORDER BY k.created_at, k.rowid, c.position`,
    )
    .bind(realm, personaId)
    .all<{ id: string; item_id: string; at: number; text: string; type: KnowledgeType; title: string }>()
  return results.map((r) => ({
    id: r.id,
    source: r.item_id,
    title: r.type === 'pdf' || r.type === 'pptx' ? `${r.title} (${r.type === 'pdf' ? 'p.' : 'slide'} ${r.at})` : r.title,
    text: r.text,
  }))
}

/**
 * A token that changes whenever the persona's knowledge corpus may have: the persona's last change (a save stamps
 * it), its items' count, their latest change (processing, a title, a stage) and their chunk count.
 */
export async function knowledgeVersion(db: D1Database, realm: string, personaId: string): Promise<string> {
  const row = await db
    .prepare(
      `SELECT p.updated_at || '|' || COUNT(k.id) || '|' || COALESCE(MAX(k.updated_at), '') || '|' || COALESCE(SUM(k.chunk_count), 0) AS v
       FROM persona p LEFT JOIN persona_knowledge k ON k.realm = p.realm AND k.persona_id = p.id
       WHERE p.realm = ? AND p.id = ?`,
    )
    .bind(realm, personaId)
    .first<{ v: string | null }>()
  return row?.v ?? ''
}

// ---------------------------------------------------------------------------------------------------------------
// Save

/**
 * The statements applying a persona's item stages (seed 002 §4), for one batch: items to delete are removed (their
 * chunks with them), pending changes are applied, and drafts and changed items become saved (`none`).
 */
export function saveItemsStatements(db: D1Database, realm: string, personaId: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        "DELETE FROM persona_knowledge_chunk WHERE realm = ?1 AND item_id IN (SELECT id FROM persona_knowledge WHERE realm = ?1 AND persona_id = ?2 AND stage = 'to_delete')",
      )
      .bind(realm, personaId),
    db.prepare("DELETE FROM persona_knowledge WHERE realm = ? AND persona_id = ? AND stage = 'to_delete'").bind(realm, personaId),
    db
      .prepare(
        "UPDATE persona_knowledge SET title = COALESCE(staged_title, title), staged_title = NULL, stage = 'none' WHERE realm = ? AND persona_id = ? AND stage IN ('draft', 'to_update')",
      )
      .bind(realm, personaId),
    db.prepare("DELETE FROM persona_dialog WHERE realm = ? AND persona_id = ? AND stage = 'to_delete'").bind(realm, personaId),
    db
      .prepare(
        `UPDATE persona_dialog SET content = COALESCE(staged, content), type = COALESCE(json_extract(staged, '$.type'), type), staged = NULL, stage = 'none'
         WHERE realm = ? AND persona_id = ? AND stage IN ('draft', 'to_update')`,
      )
      .bind(realm, personaId),
  ]
}

/** How many of the persona's items each stage holds (what a save will do). */
export async function stageCounts(db: D1Database, realm: string, personaId: string): Promise<Record<ItemStage, number>> {
  const { results } = await db
    .prepare(
      `SELECT stage, COUNT(*) AS n FROM (
         SELECT stage FROM persona_dialog WHERE realm = ?1 AND persona_id = ?2
         UNION ALL SELECT stage FROM persona_knowledge WHERE realm = ?1 AND persona_id = ?2
       ) GROUP BY stage`,
    )
    .bind(realm, personaId)
    .all<{ stage: ItemStage; n: number }>()
  const out: Record<ItemStage, number> = { none: 0, draft: 0, to_update: 0, to_delete: 0 }
  for (const r of results) out[r.stage] = r.n
  return out
}
