import * as v from 'valibot'
import { SurveyInput } from '#shared/schemas/survey/survey'
import { insert } from './tms'

/**
 * Demo surveys (issue 19): a survey model with one question of each type, published to 9º A (student@demo is a
 * member), with student@demo's answer, so every survey screen (models, publication, who answered, revise, result)
 * has a record to open on a fresh start.
 */
export function seedSurveys(db: D1Database): D1PreparedStatement[] {
  const at = new Date().toISOString()
  const by = 'teacher@demo'
  const model = v.parse(SurveyInput, {
    title: 'Como foi o bimestre?',
    description: 'Pesquisa rápida sobre as aulas de matemática do bimestre.',
    confirmation_message: 'Obrigado! Suas respostas ajudam a planejar o próximo bimestre.',
    questions: [
      { id: 'q-pace', type: 'scale', statement: 'O ritmo das aulas foi adequado.', required: true },
      { id: 'q-best', type: 'single', statement: 'Qual recurso ajudou mais?', required: true, options: ['Slides', 'Vídeos', 'Exercícios'] },
      { id: 'q-topics', type: 'multi', statement: 'Quais temas você quer revisar?', options: ['Frações', 'Porcentagem', 'Equações'] },
      { id: 'q-comment', type: 'text', statement: 'Quer deixar um comentário?' },
    ],
  })
  const content = { ...model, question_count: model.questions.length }
  const stamp = { created_at: at, created_by: by, updated_at: at, updated_by: by }
  return [
    insert(db, 'survey_model', { id: 'sm-demo-term', realm: 'demo', type: 'model', ...content, ...stamp }),
    insert(db, 'survey_survey', {
      id: 'ss-demo-term',
      realm: 'demo',
      model_id: 'sm-demo-term',
      publication_type: 'all',
      publish_at: at,
      expire_at: null,
      ...content,
      ...stamp,
    }),
    db.prepare(
      "INSERT INTO survey_survey_target (survey_id, realm, room_id) SELECT 'ss-demo-term', 'demo', 'r-demo-9a' WHERE NOT EXISTS (SELECT 1 FROM survey_survey_target WHERE survey_id = 'ss-demo-term')",
    ),
    insert(db, 'survey_answer', {
      id: 'sa-demo-term-student',
      realm: 'demo',
      survey_id: 'ss-demo-term',
      nick: 'student@demo',
      room_id: 'r-demo-9a',
      answers: { 'q-pace': 4, 'q-best': 2, 'q-topics': [0, 2] },
      created_at: at,
      updated_at: at,
      updated_by: 'student@demo',
    }),
  ]
}
