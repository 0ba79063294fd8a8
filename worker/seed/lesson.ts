import * as v from 'valibot'
import { SummaryOptions } from '#shared/schemas/lesson/genesis'
import { LessonInput } from '#shared/schemas/lesson/lesson'
import { insert } from './tms'

/**
 * Demo lessons and content generation (issue 18): an agent, a summary configuration, a lesson model with a summary,
 * a class plan and two slides, and its lesson published to 9º A (student@demo is a member), so every lesson and cgs
 * screen has a record to open on a fresh start.
 */
export function seedLessons(db: D1Database): D1PreparedStatement[] {
  const at = new Date().toISOString()
  const by = 'teacher@demo'
  const text = (id: string, html: string, y: number, size: number) => ({
    id,
    name: id,
    x: 300,
    y,
    width: 2900,
    height: size * 3,
    rotation: 0,
    opacity: 1,
    hidden: false,
    locked: false,
    kind: 'text' as const,
    html,
    font_size: size,
    color: '#111111',
    align: 'left' as const,
  })
  const lesson = v.parse(LessonInput, {
    title: 'Frações no dia a dia',
    description: 'Aula introdutória sobre frações.',
    summary:
      '<p>Uma fração representa partes iguais de um todo: o denominador diz em quantas partes o todo foi dividido e o numerador quantas foram tomadas.</p>',
    class_plan: { html: '<p>Abertura com uma pizza dividida, exposição e exercícios em duplas.</p>', duration: 50 },
    handout: '<h2>Frações</h2><p>Numerador em cima, denominador embaixo.</p>',
    slides: [
      {
        id: 'sl-demo-1',
        background: '#ffffff',
        objects: [text('t1', '<p>Frações no dia a dia</p>', 300, 200)],
        narration: 'Hoje vamos falar de frações.',
        overlay: 'none',
      },
      {
        id: 'sl-demo-2',
        background: '#ffffff',
        objects: [text('t2', '<p>Numerador e denominador</p>', 300, 160)],
        narration: 'O numerador diz quantas partes tomamos; o denominador, em quantas o todo foi dividido.',
        overlay: 'none',
      },
    ],
    question_pairs: [{ question: 'O que é o denominador?', answer: 'Em quantas partes iguais o todo foi dividido.' }],
  })
  const content = { ...lesson, slide_count: lesson.slides.length }
  const stamp = { created_at: at, created_by: by, updated_at: at, updated_by: by }
  return [
    insert(db, 'cgs_agent', {
      id: 'ag-demo-teacher',
      realm: 'demo',
      name: 'Professor de matemática',
      tags: ['matemática'],
      is_public: true,
      target_audience: 'Ensino fundamental II',
      created_at: at,
      updated_at: at,
      updated_by: by,
    }),
    insert(db, 'cgs_content_config', {
      id: 'cc-demo-summary',
      realm: 'demo',
      type: 'summary',
      title: 'Resumo padrão',
      tags: [],
      options: v.parse(SummaryOptions, {}),
      guideline: 'Linguagem simples, exemplos do cotidiano.',
      is_public: true,
      default_selected: false,
      agent_id: 'ag-demo-teacher',
      ...stamp,
    }),
    insert(db, 'lesson_model', { id: 'lm-demo-fractions', realm: 'demo', ...content, ...stamp }),
    insert(db, 'lesson_lesson', {
      id: 'll-demo-fractions',
      realm: 'demo',
      model_id: 'lm-demo-fractions',
      publication_type: 'all',
      publish_at: at,
      expire_at: null,
      ...content,
      ...stamp,
    }),
    db.prepare(
      "INSERT INTO lesson_lesson_target (lesson_id, realm, room_id) SELECT 'll-demo-fractions', 'demo', 'r-demo-9a' WHERE NOT EXISTS (SELECT 1 FROM lesson_lesson_target WHERE lesson_id = 'll-demo-fractions')",
    ),
  ]
}
