import * as v from 'valibot'
import { ModelInput } from '#shared/schemas/tms/model'
import { plainText } from '#shared/rich-text'
import { modelContent } from '../db/tms'
import { storedQuestion } from '../lib/tms'

/**
 * Demo data of task authoring: rooms of realm `demo` with the demo teacher and student as members, a room group,
 * task categories, assessed skills, genres, two task models, a task published to a room, and bank questions.
 * Every statement ignores rows that exist, so seeding twice inserts nothing.
 */
const SEEDED_BY = 'seed'

/** An insert that skips an existing row; lists and objects as JSON, booleans as 0/1. */
export function insert(db: D1Database, table: string, values: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(values)
  const encode = (x: unknown) => (typeof x === 'boolean' ? (x ? 1 : 0) : x !== null && typeof x === 'object' ? JSON.stringify(x) : x)
  return db
    .prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`)
    .bind(...cols.map((k) => encode(values[k])))
}

const fractions = v.parse(ModelInput, {
  title: 'Frações — atividade diagnóstica',
  kind: 'activity',
  description: 'Diagnóstico de frações equivalentes, comparação e problemas.',
  tags: ['frações', 'diagnóstico'],
  categories: ['c-demo-math', 'c-demo-term1'],
  style: { background_color: '#e8f5e9' },
  min_execution_time: 10,
  max_execution_time: 50,
  questions: [
    { id: 'q-info', type: 'info', statement: '<p>Leia com atenção: uma fração representa partes iguais de um todo.</p>', media_type: 'text' },
    {
      id: 'q-single',
      type: 'single',
      statement: '<p>Qual fração é equivalente a <span data-latex="\\frac{1}{2}" data-display="inline"></span>?</p>',
      score: 2,
      shuffle: true,
      options: [
        { id: 'a', statement: '<p>2/4</p>', answer: true },
        { id: 'b', statement: '<p>1/3</p>' },
        { id: 'c', statement: '<p>3/5</p>' },
      ],
    },
    {
      id: 'q-multi',
      type: 'multi',
      statement: '<p>Marque as frações maiores que 1/2.</p>',
      score: 2,
      partial_score: true,
      options: [
        { id: 'a', statement: '<p>3/4</p>', answer: true },
        { id: 'b', statement: '<p>2/3</p>', answer: true },
        { id: 'c', statement: '<p>1/4</p>' },
      ],
    },
    {
      id: 'q-tf',
      type: 'true_false',
      statement: '<p>A fração 4/8 é igual a 1/2.</p>',
      score: 1,
      options: [
        { id: 't', statement: '<p>Verdadeiro</p>', answer: true },
        { id: 'f', statement: '<p>Falso</p>' },
      ],
    },
    {
      id: 'q-fill',
      type: 'fill_words',
      statement: '<p>Complete a frase.</p>',
      score: 2,
      options: { sentence: 'Em 3/4, o [[numerador]] é 3 e o [[denominador]] é 4.', incorrect: ['divisor'], mode: 'select' },
    },
    {
      id: 'q-text',
      type: 'text',
      statement: '<p>Explique com suas palavras como comparar 2/3 e 3/5.</p>',
      score: 3,
      options: { min_text_count: 20, max_text_count: 600 },
    },
  ],
})

const essay = v.parse(ModelInput, {
  title: 'Redação: tecnologia e sociedade',
  kind: 'essay',
  description: 'Texto dissertativo-argumentativo sobre o uso da tecnologia na escola.',
  tags: ['redação'],
  categories: ['c-demo-port'],
  questions: [
    {
      id: 'q-essay',
      type: 'essay',
      statement: '<p>Escreva um texto dissertativo-argumentativo sobre os desafios do uso da tecnologia na escola.</p>',
      score: 10,
      options: {
        language: 'pt-BR',
        genre: 'gn-demo-diss',
        min_word_count: 150,
        max_word_count: 400,
        assessed_skill_ids: ['sk-demo-c1', 'sk-demo-c2', 'sk-demo-c3'],
        support_text: '<p>Considere dados recentes sobre conectividade.</p>',
      },
    },
  ],
})

const bankQuestions = [
  {
    id: 'b-demo-1',
    type: 'single',
    statement: '<p>Quanto é 3/4 de 20?</p>',
    score: 1,
    difficulty: 'easy',
    options: [
      { id: 'a', statement: '<p>15</p>', answer: true },
      { id: 'b', statement: '<p>12</p>' },
    ],
  },
  {
    id: 'b-demo-2',
    type: 'text',
    statement: '<p>Dê um exemplo de fração imprópria e explique.</p>',
    score: 2,
    difficulty: 'medium',
    options: { min_text_count: 10, max_text_count: 300 },
  },
  {
    id: 'b-demo-3',
    type: 'order_sentences',
    statement: '<p>Ordene do menor para o maior.</p>',
    score: 2,
    difficulty: 'hard',
    shuffle: true,
    options: { sentences: ['1/4', '1/3', '1/2'], incorrect: [] },
  },
]

/** Row builders the demo seed and the tests' factories (tests/workers/factories.ts) share. */
export function roomRow(db: D1Database, room: { id: string; realm: string; name: string; topic?: string; type?: string }, at: string): D1PreparedStatement {
  return insert(db, 'room', {
    topic: '',
    type: 'lecture',
    ...room,
    member_count: 0,
    created_by: SEEDED_BY,
    created_at: at,
    updated_at: at,
    updated_by: SEEDED_BY,
  })
}

export function roomMemberRow(db: D1Database, realm: string, room: string, nick: string, at: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO room_member (realm, room_id, nick, added_at, added_by) VALUES (?, ?, ?, ?, 'seed') ON CONFLICT DO NOTHING")
    .bind(realm, room, nick, at)
}

export function roomGroupRow(db: D1Database, group: { id: string; realm: string; name: string; rooms: string[] }, at: string): D1PreparedStatement {
  return insert(db, 'room_group', { ...group, created_by: SEEDED_BY, created_at: at, updated_at: at, updated_by: SEEDED_BY })
}

export function taskCategoryRow(
  db: D1Database,
  category: { id: string; realm: string; name: string; parent_id?: string | null } & Record<string, unknown>,
  at: string,
) {
  return insert(db, 'tms_category', {
    parent_id: null,
    selectable: true,
    enabled: true,
    required: false,
    multi_selection: true,
    embed: false,
    show_in_navigation: false,
    show_in_filter: true,
    show_in_list: true,
    ...category,
    created_at: at,
    updated_at: at,
    updated_by: SEEDED_BY,
  })
}

/** A bank question as the API stores it: `question` is editor input (ModelInput's question shape). */
export function bankQuestionRow(
  db: D1Database,
  realm: string,
  { id, difficulty, ...q }: { id: string; difficulty: string } & Record<string, unknown>,
  by: string,
  at: string,
  extra: Record<string, unknown> = {},
): D1PreparedStatement {
  const stored = storedQuestion(v.parse(ModelInput, { title: 'bank', questions: [q] }).questions[0], {})
  const { id: _id, bank_id: _b, ...fields } = stored
  return insert(db, 'tms_question_bank', {
    ...fields,
    id,
    realm,
    statement_text: plainText(stored.statement),
    difficulty,
    created_by: by,
    created_at: at,
    updated_at: at,
    updated_by: by,
    ...extra,
  })
}

export function seedTms(db: D1Database): D1PreparedStatement[] {
  const now = new Date()
  const at = now.toISOString()
  const stamp = { created_at: at, updated_at: at, updated_by: SEEDED_BY }
  const rooms = [
    { id: 'r-demo-9a', realm: 'demo', name: '9º A', topic: 'Matemática e Ciências', type: 'lecture' },
    { id: 'r-demo-9b', realm: 'demo', name: '9º B', topic: 'Língua Portuguesa', type: 'lecture' },
    { id: 'r-escola-1a', realm: 'escola', name: '1º A', topic: 'Ensino médio', type: 'lecture' },
  ]
  const members = [
    ['r-demo-9a', 'teacher@demo'],
    ['r-demo-9a', 'student@demo'],
    ['r-demo-9b', 'teacher@demo'],
    ['r-demo-9b', 'student@demo'],
  ]
  const categories = [
    { id: 'c-demo-subject', name: 'Disciplina', parent_id: null, required: true, multi_selection: false, selectable: false, show_in_navigation: true },
    { id: 'c-demo-math', name: 'Matemática', parent_id: 'c-demo-subject' },
    { id: 'c-demo-port', name: 'Língua Portuguesa', parent_id: 'c-demo-subject' },
    { id: 'c-demo-sci', name: 'Ciências', parent_id: 'c-demo-subject' },
    { id: 'c-demo-term', name: 'Bimestre', parent_id: null, selectable: false },
    { id: 'c-demo-term1', name: '1º bimestre', parent_id: 'c-demo-term' },
    { id: 'c-demo-term2', name: '2º bimestre', parent_id: 'c-demo-term' },
  ]
  const skills = [
    { id: 'sk-demo-enem', name: 'Competências da redação', type: 'group', weight: 1, group_id: null },
    ...['Norma culta', 'Compreensão do tema', 'Argumentação', 'Coesão', 'Proposta de intervenção'].map((name, i) => ({
      id: `sk-demo-c${i + 1}`,
      name,
      type: 'skill',
      weight: 2,
      group_id: 'sk-demo-enem',
    })),
  ]
  const genres = [
    { id: 'gn-demo-diss', name: 'Dissertativo-argumentativo', min_words: 150, max_words: 400 },
    { id: 'gn-demo-narr', name: 'Narrativo', min_words: 100, max_words: 300 },
  ]
  const models = [
    { id: 'm-demo-fractions', input: fractions },
    { id: 'm-demo-essay', input: essay },
  ].map(({ id, input }) => {
    const { parent_id: _p, ...rest } = input
    const questions = input.questions.map((q) => storedQuestion(q, {}))
    return {
      ...rest,
      questions,
      id,
      realm: 'demo',
      parent_id: null,
      version: 1,
      question_count: questions.filter((q) => q.type !== 'info' && q.type !== 'section').length,
      created_by: 'teacher@demo',
      ...stamp,
      updated_by: 'teacher@demo',
    }
  })
  const publishAt = at
  const expireAt = new Date(now.getTime() + 7 * 86_400_000).toISOString()
  const fractionsModel = models[0]
  return [
    ...rooms.map((r) => roomRow(db, r, at)),
    ...members.map(([room, nick]) => roomMemberRow(db, 'demo', room, nick, at)),
    roomGroupRow(db, { id: 'g-demo-9', realm: 'demo', name: '9º ano', rooms: ['r-demo-9a', 'r-demo-9b'] }, at),
    // A card of the demo (seed 002 §3 "Card"), shown in 9º A: its URL names the user and the room.
    insert(db, 'room_card', {
      id: 'card-demo-library',
      realm: 'demo',
      type: 'link',
      label: 'Biblioteca digital',
      label_id: 'card.library',
      url: 'https://biblioteca.example/{realm}?aluno={nick}&turma={room_name}&lang={lang}',
      created_at: at,
      updated_at: at,
      updated_by: SEEDED_BY,
    }),
    db.prepare("UPDATE room SET cards = '[\"card-demo-library\"]' WHERE id = 'r-demo-9a' AND cards = '[]'"),
    ...categories.map((c) => taskCategoryRow(db, { ...c, realm: 'demo' }, at)),
    ...skills.map((s) => insert(db, 'tms_assessed_skill', { ...s, realm: 'demo', description: '', ...stamp })),
    ...genres.map((g) => insert(db, 'tms_genre', { ...g, realm: 'demo', description: '', ...stamp })),
    ...models.map((m) => insert(db, 'tms_model', m)),
    db
      .prepare(
        "INSERT INTO tms_model_version (model_id, version, realm, content, created_at, created_by) VALUES ('m-demo-fractions', 1, 'demo', ?, ?, 'teacher@demo') ON CONFLICT DO NOTHING",
      )
      .bind(JSON.stringify(modelContent(fractionsModel)), at),
    db
      .prepare(
        `INSERT INTO tms_task (id, realm, model_id, model_version, title, kind, publication_type, publish_at, expire_at, show_timer, scheduling_enabled, token, categories, created_at, created_by, updated_at, updated_by)
         VALUES ('t-demo-fractions', 'demo', 'm-demo-fractions', 1, ?, 'activity', 'all', ?, ?, 1, 1, 0, ?, ?, 'teacher@demo', ?, 'teacher@demo') ON CONFLICT DO NOTHING`,
      )
      .bind(fractionsModel.title, publishAt, expireAt, JSON.stringify(fractionsModel.categories), at, at),
    // Targets have no key of their own: insert only when missing.
    db.prepare(
      "INSERT INTO tms_task_target (task_id, realm, room_id) SELECT 't-demo-fractions', 'demo', 'r-demo-9a' WHERE NOT EXISTS (SELECT 1 FROM tms_task_target WHERE task_id = 't-demo-fractions')",
    ),
    ...bankQuestions.map((q) =>
      bankQuestionRow(db, 'demo', q, 'teacher@demo', at, {
        tags: ['frações'],
        grade_id: 9,
        subject_id: 'MAT',
        standard_id: 'EF09MA',
        descriptor_id: 'D1',
        batch_id: 'demo-2025',
        curriculum: 'BNCC',
        updated_by: SEEDED_BY,
      }),
    ),
  ]
}
