import { insert } from './tms'

/**
 * Demo goals (issue 19): an objective, a goal model with an award, the goal published from it to 9º A (a one-off
 * goal over this year), and a track of the demo task model and lesson model, so every achievement and track
 * screen has a record to open on a fresh start.
 */
export function seedAchievements(db: D1Database): D1PreparedStatement[] {
  const at = new Date().toISOString()
  const year = at.slice(0, 4)
  const stamp = { created_at: at, updated_at: at, updated_by: 'teacher@demo' }
  const goal = (id: string, extra: Record<string, unknown>) =>
    insert(db, 'achievement_goal', {
      id,
      realm: 'demo',
      title: 'Leitores do ano',
      objective_ids: ['ob-demo-score'],
      activity_categories: [],
      question_categories: [],
      created_by: 'teacher@demo',
      ...stamp,
      ...extra,
    })
  const award = (id: string, goalId: string) =>
    insert(db, 'achievement_award', {
      id,
      realm: 'demo',
      goal_id: goalId,
      position: 0,
      title: 'Estrela de leitura',
      description: 'Média de 70% nas tarefas do ano.',
      kind: 'product',
      progress: [{ objective_id: 'ob-demo-score', min: 1, max: 1 }],
    })
  return [
    insert(db, 'achievement_objective', {
      id: 'ob-demo-score',
      realm: 'demo',
      title: 'Média nas tarefas',
      entity: 'tasks',
      criteria: 'all',
      unit: 'score',
      percent: 0.7,
      ...stamp,
    }),
    goal('go-demo-model', { type: 'model', status: 'planned' }),
    goal('go-demo-goal', {
      type: 'goal',
      model_id: 'go-demo-model',
      status: 'active',
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      targets: [{ kind: 'room', id: 'r-demo-9a' }],
    }),
    insert(db, 'achievement_goal_objective', { goal_id: 'go-demo-model', realm: 'demo', objective_id: 'ob-demo-score' }),
    insert(db, 'achievement_goal_objective', { goal_id: 'go-demo-goal', realm: 'demo', objective_id: 'ob-demo-score' }),
    award('aw-demo-model', 'go-demo-model'),
    award('aw-demo-goal', 'go-demo-goal'),
    insert(db, 'achievement_goal_period', {
      goal_id: 'go-demo-goal',
      realm: 'demo',
      period_key: 'once',
      starts_on: `${year}-01-01`,
      ends_on: `${year}-12-31`,
      published_at: at,
    }),
    insert(db, 'achievement_track', {
      id: 'tr-demo-reading',
      realm: 'demo',
      title: 'Trilha de frações',
      description: 'A atividade diagnóstica, depois a aula.',
      tags: ['matemática'],
      is_public: false,
      items: [
        { kind: 'task_model', id: 'm-demo-fractions' },
        { kind: 'lesson', id: 'lm-demo-fractions' },
      ],
      ...stamp,
    }),
  ]
}
