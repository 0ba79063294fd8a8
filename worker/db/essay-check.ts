/** The essay checks a student ran (issue 17, migration 0059): counted per realm, task, student and essay question. */

/**
 * Reserves one check within `limit`: one conditional upsert, so two checks racing each other never pass the limit.
 * Answers the checks used with this one, or null when the limit was already reached.
 */
export async function reserveCheck(db: D1Database, key: { realm: string; task: string; nick: string; question: string }, limit: number, at: string) {
  const row = await db
    .prepare(
      `INSERT INTO tms_essay_check (realm, task_id, nick, question_id, checks, last_at) SELECT ?1, ?2, ?3, ?4, 1, ?5 WHERE ?6 > 0
       ON CONFLICT (realm, task_id, nick, question_id) DO UPDATE SET checks = checks + 1, last_at = excluded.last_at WHERE checks < ?6
       RETURNING checks`,
    )
    .bind(key.realm, key.task, key.nick, key.question, at, limit)
    .first<{ checks: number }>()
  return row ? row.checks : null
}

/** Gives a reserved check back (the checker failed: the student is not charged for it). */
export function releaseCheck(db: D1Database, key: { realm: string; task: string; nick: string; question: string }) {
  return db
    .prepare('UPDATE tms_essay_check SET checks = checks - 1 WHERE realm = ? AND task_id = ? AND nick = ? AND question_id = ? AND checks > 0')
    .bind(key.realm, key.task, key.nick, key.question)
    .run()
}
