import type { PollQuestion, PollQuestionInput, QuestionState, QuizOption, QuizQuestion, QuizQuestionInput, QuizStatus } from '#shared/schemas/quiz'

/**
 * Quizzes and polls (issue 14): their questions, lifecycle, the results the quiz party writes, statistics, winners
 * and payouts. Every statement names the realm. `kind` picks the quiz or the poll tables, which share their shape
 * for status and question state.
 */
export type LiveKind = 'quiz' | 'poll'
const T = { quiz: { table: 'quiz', questions: 'quiz_question', ref: 'quiz_id' }, poll: { table: 'poll', questions: 'poll_question', ref: 'poll_id' } } as const

/** The list's computed `channel_name`. */
export const channelNameColumn = (kind: LiveKind) => `SELECT ch.name FROM channel ch WHERE ch.realm = "${kind}".realm AND ch.id = "${kind}".channel_id`

export interface LiveHead {
  id: string
  name: string
  channel_id: string
  status: QuizStatus
  question_count: number
}

/** A quiz's or poll's head (id, name, channel, status, question count), or null. */
export function findLive(db: D1Database, kind: LiveKind, realm: string, id: string): Promise<LiveHead | null> {
  return db.prepare(`SELECT id, name, channel_id, status, question_count FROM ${T[kind].table} WHERE realm = ? AND id = ?`).bind(realm, id).first<LiveHead>()
}

/** A quiz or poll running on a channel, as the channel's public deep-link page offers it (issue 14). */
export type ActiveOnChannel = { kind: 'quiz' | 'poll'; id: string; name: string }

/** The active quizzes and the active poll of a channel (its deep-link page's "play" and "vote" choices), quizzes first. */
export function activeOnChannelStatement(db: D1Database, realm: string, channelId: string): D1PreparedStatement {
  return db
    .prepare(
      "SELECT 'quiz' AS kind, id, name FROM quiz WHERE realm = ?1 AND channel_id = ?2 AND status = 'active' " +
        "UNION ALL SELECT 'poll' AS kind, id, name FROM poll WHERE realm = ?1 AND channel_id = ?2 AND status = 'active' ORDER BY kind DESC, name LIMIT 10",
    )
    .bind(realm, channelId)
}

/** The active poll of a channel other than `self`, or null. */
export function activePollOfChannel(db: D1Database, realm: string, channelId: string, self: string): Promise<{ id: string; name: string } | null> {
  return db
    .prepare("SELECT id, name FROM poll WHERE realm = ? AND channel_id = ? AND status = 'active' AND id != ?")
    .bind(realm, channelId, self)
    .first<{ id: string; name: string }>()
}

/** Moves a quiz or poll from one of `from` to `to` (stamping when it started or finished); changes nothing otherwise. */
export function statusStatement(
  db: D1Database,
  kind: LiveKind,
  realm: string,
  id: string,
  from: QuizStatus[],
  to: QuizStatus,
  at: string,
  by: string,
): D1PreparedStatement {
  const stampCol = to === 'active' ? ', started_at = ?5' : to === 'finished' || to === 'canceled' ? ', finished_at = ?5' : ''
  return db
    .prepare(
      `UPDATE ${T[kind].table} SET status = ?3, updated_at = ?5, updated_by = ?6${stampCol} WHERE realm = ?1 AND id = ?2 AND status IN (SELECT value FROM json_each(?4))`,
    )
    .bind(realm, id, to, JSON.stringify(from), at, by)
}

type QuizQuestionRow = Omit<QuizQuestion, 'lifes_disallowed' | 'correct'> & { lifes_disallowed: number; correct: string; realm?: string }
const quizQuestion = (r: QuizQuestionRow): QuizQuestion => {
  const { realm: _realm, ...rest } = r
  return { ...rest, correct: r.correct as QuizOption, lifes_disallowed: r.lifes_disallowed === 1 }
}
type PollQuestionRow = Omit<PollQuestion, 'options' | 'params'> & { options: string; params: string; realm?: string }
const pollQuestion = (r: PollQuestionRow): PollQuestion => {
  const { realm: _realm, ...rest } = r
  return { ...rest, options: JSON.parse(r.options) as string[], params: JSON.parse(r.params) as PollQuestion['params'] }
}

/** A quiz's questions in order. */
export async function quizQuestions(db: D1Database, realm: string, quizId: string): Promise<QuizQuestion[]> {
  const { results } = await db
    .prepare('SELECT * FROM quiz_question WHERE realm = ? AND quiz_id = ? ORDER BY position, id')
    .bind(realm, quizId)
    .all<QuizQuestionRow>()
  return results.map(quizQuestion)
}

/** A poll's questions in order. */
export async function pollQuestions(db: D1Database, realm: string, pollId: string): Promise<PollQuestion[]> {
  const { results } = await db
    .prepare('SELECT * FROM poll_question WHERE realm = ? AND poll_id = ? ORDER BY position, id')
    .bind(realm, pollId)
    .all<PollQuestionRow>()
  return results.map(pollQuestion)
}

/** One question's state (and the id it has in the quiz or poll), or null. */
export function questionState(db: D1Database, kind: LiveKind, realm: string, parent: string, id: string): Promise<{ id: string; state: QuestionState } | null> {
  return db
    .prepare(`SELECT id, state FROM ${T[kind].questions} WHERE realm = ? AND ${T[kind].ref} = ? AND id = ?`)
    .bind(realm, parent, id)
    .first<{ id: string; state: QuestionState }>()
}

/** Appends quiz questions after the last one (positions continue), in one statement. */
export function insertQuizQuestionsStatement(
  db: D1Database,
  realm: string,
  quizId: string,
  questions: (QuizQuestionInput & { id: string })[],
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO quiz_question (id, realm, quiz_id, position, text, option_a, option_b, option_c, correct, lifes_disallowed)
       SELECT j.value ->> 'id', ?1, ?2, (SELECT COALESCE(MAX(position), -1) FROM quiz_question WHERE quiz_id = ?2) + 1 + j.key,
              j.value ->> 'text', j.value ->> 'option_a', j.value ->> 'option_b', j.value ->> 'option_c', j.value ->> 'correct', j.value ->> 'lifes_disallowed'
       FROM json_each(?3) j ORDER BY j.key`,
    )
    .bind(realm, quizId, JSON.stringify(questions.map((q) => ({ ...q, lifes_disallowed: q.lifes_disallowed ? 1 : 0 }))))
}

/** Appends poll questions after the last one. */
export function insertPollQuestionsStatement(
  db: D1Database,
  realm: string,
  pollId: string,
  questions: (PollQuestionInput & { id: string })[],
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO poll_question (id, realm, poll_id, position, text, type, options, params)
       SELECT j.value ->> 'id', ?1, ?2, (SELECT COALESCE(MAX(position), -1) FROM poll_question WHERE poll_id = ?2) + 1 + j.key,
              j.value ->> 'text', j.value ->> 'type', json(j.value -> 'options'), json(j.value -> 'params')
       FROM json_each(?3) j ORDER BY j.key`,
    )
    .bind(realm, pollId, JSON.stringify(questions))
}

/** Changes a pending quiz question. */
export function updateQuizQuestionStatement(db: D1Database, realm: string, quizId: string, id: string, q: QuizQuestionInput): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE quiz_question SET text = ?, option_a = ?, option_b = ?, option_c = ?, correct = ?, lifes_disallowed = ? WHERE realm = ? AND quiz_id = ? AND id = ? AND state = 'pending'",
    )
    .bind(q.text, q.option_a, q.option_b, q.option_c, q.correct, q.lifes_disallowed ? 1 : 0, realm, quizId, id)
}

/** Changes a pending poll question. */
export function updatePollQuestionStatement(db: D1Database, realm: string, pollId: string, id: string, q: PollQuestionInput): D1PreparedStatement {
  return db
    .prepare("UPDATE poll_question SET text = ?, type = ?, options = ?, params = ? WHERE realm = ? AND poll_id = ? AND id = ? AND state = 'pending'")
    .bind(q.text, q.type, JSON.stringify(q.options), JSON.stringify(q.params), realm, pollId, id)
}

/** Deletes a question that is not published nor showing its result. */
export function deleteQuestionStatement(db: D1Database, kind: LiveKind, realm: string, parent: string, id: string): D1PreparedStatement {
  return db
    .prepare(`DELETE FROM ${T[kind].questions} WHERE realm = ? AND ${T[kind].ref} = ? AND id = ? AND state NOT IN ('published', 'result')`)
    .bind(realm, parent, id)
}

/**
 * Moves a question from one of `from` to `to` while its quiz or poll is active; a publish stamps when and until when
 * answers are open. The partial unique index keeps a second question from opening beside a published one.
 */
export function questionStateStatement(
  db: D1Database,
  kind: LiveKind,
  realm: string,
  parent: string,
  id: string,
  from: QuestionState[],
  to: QuestionState,
  open?: { published_at: string; deadline: string },
): D1PreparedStatement {
  const t = T[kind]
  return db
    .prepare(
      `UPDATE ${t.questions} SET state = ?4${open ? ', published_at = ?6, deadline = ?7' : ''}
       WHERE realm = ?1 AND ${t.ref} = ?2 AND id = ?3 AND state IN (SELECT value FROM json_each(?5))
         AND EXISTS (SELECT 1 FROM ${t.table} p WHERE p.id = ?2 AND p.realm = ?1 AND p.status = 'active')`,
    )
    .bind(realm, parent, id, to, JSON.stringify(from), ...(open ? [open.published_at, open.deadline] : []))
}

/** Copies a quiz (as a new draft named `name`) with its questions, all pending. */
export function cloneQuizStatements(db: D1Database, realm: string, from: string, to: string, name: string, at: string, by: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO quiz (id, realm, name, channel_id, reward_type, reward, reward_value, reward_per_player, reward_currency, question_duration, lifes_timeout, lives,
                           status, created_at, created_by, updated_at, updated_by)
         SELECT ?3, realm, ?4, channel_id, reward_type, reward, reward_value, reward_per_player, reward_currency, question_duration, lifes_timeout, lives,
                'draft', ?5, ?6, ?5, ?6 FROM quiz WHERE realm = ?1 AND id = ?2`,
      )
      .bind(realm, from, to, name, at, by),
    db
      .prepare(
        `INSERT INTO quiz_question (id, realm, quiz_id, position, text, option_a, option_b, option_c, correct, lifes_disallowed)
         SELECT ?3 || '-' || position, realm, ?3, position, text, option_a, option_b, option_c, correct, lifes_disallowed
         FROM quiz_question WHERE realm = ?1 AND quiz_id = ?2 ORDER BY position`,
      )
      .bind(realm, from, to),
  ]
}

/** Copies a poll (as a new draft) with its questions. */
export function clonePollStatements(db: D1Database, realm: string, from: string, to: string, name: string, at: string, by: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO poll (id, realm, type, name, channel_id, question_duration, requires, status, created_at, created_by, updated_at, updated_by)
         SELECT ?3, realm, type, ?4, channel_id, question_duration, requires, 'draft', ?5, ?6, ?5, ?6 FROM poll WHERE realm = ?1 AND id = ?2`,
      )
      .bind(realm, from, to, name, at, by),
    db
      .prepare(
        `INSERT INTO poll_question (id, realm, poll_id, position, text, type, options, params)
         SELECT ?3 || '-' || position, realm, ?3, position, text, type, options, params FROM poll_question WHERE realm = ?1 AND poll_id = ?2 ORDER BY position`,
      )
      .bind(realm, from, to),
  ]
}

/** Single-choice question-bank items of the realm among `ids` (statement and options as stored). */
export async function bankChoiceQuestions(
  db: D1Database,
  realm: string,
  ids: string[],
): Promise<{ id: string; type: string; statement: string; options: string }[]> {
  const { results } = await db
    .prepare('SELECT b.id, b.type, b.statement, b.options FROM json_each(?2) j JOIN tms_question_bank b ON b.realm = ?1 AND b.id = j.value ORDER BY j.key')
    .bind(realm, JSON.stringify(ids))
    .all<{ id: string; type: string; statement: string; options: string }>()
  return results
}

/** The realm's maximum prize of one quiz (-1: none). */
export async function realmMaxPrize(db: D1Database, realm: string): Promise<number> {
  return (await db.prepare('SELECT quiz_max_prize FROM realm WHERE code = ?').bind(realm).first<number>('quiz_max_prize')) ?? -1
}

// ——— Results (written by the quiz party through the realm API) ———

export interface AnswerResult {
  nick: string
  option: QuizOption
  correct: boolean
  ms: number
  score: number
}
export interface PlayerStanding {
  nick: string
  name: string
  guest: boolean
  score: number
  total_ms: number
  correct_count: number
  lives_left: number
  lives_used: number
  eliminated: boolean
}

/**
 * A finished question's answers (each counts once: the same player and question again changes nothing) and every
 * player's standing after it (replaced whole: the party holds the truth), then — on the party's `final` page — the
 * question marked finished.
 */
export function questionResultStatements(
  db: D1Database,
  realm: string,
  quizId: string,
  questionId: string,
  answers: AnswerResult[],
  players: PlayerStanding[],
  final = true,
): D1PreparedStatement[] {
  return [
    ...jsonChunks(answers.map((a) => ({ ...a, correct: a.correct ? 1 : 0 }))).map((part) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO quiz_answer (realm, quiz_id, question_id, nick, option, correct, ms, score)
           SELECT ?1, ?2, ?3, j.value ->> 'nick', j.value ->> 'option', j.value ->> 'correct', j.value ->> 'ms', j.value ->> 'score' FROM json_each(?4) j`,
        )
        .bind(realm, quizId, questionId, part),
    ),
    ...playerStatements(db, realm, quizId, players),
    ...(final
      ? [
          db
            .prepare("UPDATE quiz_question SET state = 'finished' WHERE realm = ? AND quiz_id = ? AND id = ? AND state IN ('published', 'result')")
            .bind(realm, quizId, questionId),
        ]
      : []),
  ]
}

/**
 * The most UTF-16 code units one bound JSON array may hold: D1 refuses a string above 2,000,000 bytes, and a code
 * unit is at most 3 bytes of UTF-8, so 600,000 units stay under it whatever the names are.
 */
export const JSON_PARAM_UNITS = 600_000

/**
 * `items` as JSON arrays each at most `units` UTF-16 code units long (an item alone longer than that still gets its
 * own array), so a crowd's rows are bound to several statements of one batch instead of one string past D1's limit.
 */
export function jsonChunks(items: unknown[], units = JSON_PARAM_UNITS): string[] {
  const out: string[] = []
  let part: string[] = []
  let size = 2
  for (const item of items) {
    const text = JSON.stringify(item)
    if (part.length && size + text.length + 1 > units) {
      out.push(`[${part.join(',')}]`)
      part = []
      size = 2
    }
    part.push(text)
    size += text.length + 1
  }
  if (part.length) out.push(`[${part.join(',')}]`)
  return out
}

/** Every player's standing, replaced whole (in as many statements as the crowd needs; see `jsonChunks`). */
export function playerStatements(db: D1Database, realm: string, quizId: string, players: PlayerStanding[]): D1PreparedStatement[] {
  return jsonChunks(players.map((p) => ({ ...p, guest: p.guest ? 1 : 0, eliminated: p.eliminated ? 1 : 0 }))).map((part) =>
    db
      .prepare(
        `INSERT INTO quiz_player (realm, quiz_id, nick, name, guest, score, total_ms, correct_count, lives_left, lives_used, eliminated)
         SELECT ?1, ?2, j.value ->> 'nick', j.value ->> 'name', j.value ->> 'guest', j.value ->> 'score', j.value ->> 'total_ms', j.value ->> 'correct_count',
                j.value ->> 'lives_left', j.value ->> 'lives_used', j.value ->> 'eliminated' FROM json_each(?3) j WHERE 1
         ON CONFLICT (quiz_id, nick) DO UPDATE SET name = excluded.name, score = excluded.score, total_ms = excluded.total_ms,
           correct_count = excluded.correct_count, lives_left = excluded.lives_left, lives_used = excluded.lives_used, eliminated = excluded.eliminated`,
      )
      .bind(realm, quizId, part),
  )
}

/** A poll question's votes (each player's first counts; in as many statements as needed) and, on the party's `final` page, the question finished. */
export function pollResultStatements(
  db: D1Database,
  realm: string,
  pollId: string,
  questionId: string,
  votes: { nick: string; choices: number[]; profile: Record<string, string | number | undefined> }[],
  final = true,
): D1PreparedStatement[] {
  return [
    ...jsonChunks(votes).map((part) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO poll_vote (realm, poll_id, question_id, nick, choices, profile)
           SELECT ?1, ?2, ?3, j.value ->> 'nick', json(j.value -> 'choices'), json(j.value -> 'profile') FROM json_each(?4) j`,
        )
        .bind(realm, pollId, questionId, part),
    ),
    ...(final
      ? [
          db
            .prepare("UPDATE poll_question SET state = 'finished' WHERE realm = ? AND poll_id = ? AND id = ? AND state IN ('published', 'result')")
            .bind(realm, pollId, questionId),
        ]
      : []),
  ]
}

export type RankedPlayer = PlayerStanding & { rank: number }

/** The quiz's players ranked: those still in first, by score (higher first), ties by total answer time (lower first). */
export async function rankedPlayers(db: D1Database, realm: string, quizId: string): Promise<RankedPlayer[]> {
  const { results } = await db
    .prepare('SELECT * FROM quiz_player WHERE realm = ? AND quiz_id = ? ORDER BY eliminated, score DESC, total_ms, nick')
    .bind(realm, quizId)
    .all<Record<string, unknown>>()
  return results.map((r, i) => ({
    nick: String(r.nick),
    name: String(r.name),
    guest: r.guest === 1,
    score: Number(r.score),
    total_ms: Number(r.total_ms),
    correct_count: Number(r.correct_count),
    lives_left: Number(r.lives_left),
    lives_used: Number(r.lives_used),
    eliminated: r.eliminated === 1,
    rank: i + 1,
  }))
}

export interface Payout {
  nick: string
  rank: number
  points: number
  transaction_id: string
  paid_at: string
}

/** The rewards a quiz's finish paid, by rank. */
export async function quizPayouts(db: D1Database, realm: string, quizId: string): Promise<Payout[]> {
  const { results } = await db
    .prepare('SELECT nick, rank, points, transaction_id, paid_at FROM quiz_payout WHERE realm = ? AND quiz_id = ? ORDER BY rank')
    .bind(realm, quizId)
    .all<Payout>()
  return results
}

/** Records a payout (once per quiz and player, in the movement's own batch). */
export function payoutStatement(db: D1Database, realm: string, quizId: string, p: Payout): D1PreparedStatement {
  return db
    .prepare('INSERT OR IGNORE INTO quiz_payout (realm, quiz_id, nick, rank, points, transaction_id, paid_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(realm, quizId, p.nick, p.rank, p.points, p.transaction_id, p.paid_at)
}

export interface QuestionStatistics {
  id: string
  position: number
  text: string
  correct: QuizOption
  answers: number
  distribution: Record<QuizOption, number>
  correct_rate: number
  mean_ms: number
}

/** Per question of a quiz: answers per option, the share answered right and the mean answer time (from D1). */
export async function quizQuestionStatistics(db: D1Database, realm: string, quizId: string): Promise<QuestionStatistics[]> {
  const { results } = await db
    .prepare(
      `SELECT q.id, q.position, q.text, q.correct,
              COUNT(a.nick) AS answers,
              SUM(a.option = 'A') AS a, SUM(a.option = 'B') AS b, SUM(a.option = 'C') AS c,
              SUM(a.correct) AS right, AVG(a.ms) AS mean_ms
       FROM quiz_question q LEFT JOIN quiz_answer a ON a.quiz_id = q.quiz_id AND a.question_id = q.id
       WHERE q.realm = ? AND q.quiz_id = ? GROUP BY q.id ORDER BY q.position`,
    )
    .bind(realm, quizId)
    .all<Record<string, number | string | null>>()
  return results.map((r) => {
    const answers = Number(r.answers ?? 0)
    return {
      id: String(r.id),
      position: Number(r.position),
      text: String(r.text),
      correct: r.correct as QuizOption,
      answers,
      distribution: { A: Number(r.a ?? 0), B: Number(r.b ?? 0), C: Number(r.c ?? 0) },
      correct_rate: answers ? Number(r.right ?? 0) / answers : 0,
      mean_ms: Math.round(Number(r.mean_ms ?? 0)),
    }
  })
}

/** Per question of a poll: votes per option (or per rating value) and how many voted. */
export async function pollQuestionStatistics(
  db: D1Database,
  realm: string,
  pollId: string,
): Promise<{ id: string; text: string; votes: number; distribution: Record<string, number> }[]> {
  const { results } = await db
    .prepare(
      `SELECT q.id, q.position, q.text, c.value AS choice, COUNT(c.value) AS n,
              (SELECT COUNT(*) FROM poll_vote v2 WHERE v2.poll_id = q.poll_id AND v2.question_id = q.id) AS votes
       FROM poll_question q LEFT JOIN poll_vote v ON v.poll_id = q.poll_id AND v.question_id = q.id LEFT JOIN json_each(v.choices) c
       WHERE q.realm = ? AND q.poll_id = ? GROUP BY q.id, c.value ORDER BY q.position, c.value`,
    )
    .bind(realm, pollId)
    .all<{ id: string; text: string; choice: number | null; n: number; votes: number }>()
  const out = new Map<string, { id: string; text: string; votes: number; distribution: Record<string, number> }>()
  for (const r of results) {
    const q = out.get(r.id) ?? { id: r.id, text: r.text, votes: r.votes, distribution: {} }
    if (r.choice !== null) q.distribution[String(r.choice)] = r.n
    out.set(r.id, q)
  }
  return [...out.values()]
}

/** A quiz's or poll's question time, in seconds (0 when it is not there). */
export async function questionDuration(db: D1Database, kind: LiveKind, realm: string, id: string): Promise<number> {
  return (await db.prepare(`SELECT question_duration FROM ${T[kind].table} WHERE realm = ? AND id = ?`).bind(realm, id).first<number>('question_duration')) ?? 0
}

/** What a quiz's finish pays and from where. */
export function quizRewardSettings(
  db: D1Database,
  realm: string,
  id: string,
): Promise<{ name: string; reward_type: string; reward_value: number; reward_per_player: number; channel_id: string } | null> {
  return db
    .prepare('SELECT name, reward_type, reward_value, reward_per_player, channel_id FROM quiz WHERE realm = ? AND id = ?')
    .bind(realm, id)
    .first<{ name: string; reward_type: string; reward_value: number; reward_per_player: number; channel_id: string }>()
}

/** A quiz's live settings (question time and extra-life time in seconds, extra lives), or null. */
export function quizLiveSettings(
  db: D1Database,
  realm: string,
  id: string,
): Promise<{ question_duration: number; lifes_timeout: number; lives: number } | null> {
  return db
    .prepare('SELECT question_duration, lifes_timeout, lives FROM quiz WHERE realm = ? AND id = ?')
    .bind(realm, id)
    .first<{ question_duration: number; lifes_timeout: number; lives: number }>()
}

/** A poll's live settings (type, voting time in seconds, requirements), or null. */
export async function pollLiveSettings(
  db: D1Database,
  realm: string,
  id: string,
): Promise<{ type: string; question_duration: number; requires: Record<string, boolean> } | null> {
  const row = await db
    .prepare('SELECT type, question_duration, requires FROM poll WHERE realm = ? AND id = ?')
    .bind(realm, id)
    .first<{ type: string; question_duration: number; requires: string }>()
  return row ? { type: row.type, question_duration: row.question_duration, requires: JSON.parse(row.requires) as Record<string, boolean> } : null
}
