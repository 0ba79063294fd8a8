import { SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import { issuanceAccount, postingStatements, realmWallet, userWallet, type AccountRef } from '../db/ledger'

/** Demo packages of realm `demo`, one per currency (BRL is the default, seed 000 §9). */
const PACKAGES = [
  { id: 'pkg_demo_start', name: 'Inicial', description: 'Para experimentar a geração de aulas.', cost: 49.9, currency: 'BRL', points: 500, recommended: 0 },
  {
    id: 'pkg_demo_school',
    name: 'Escola',
    description: 'Para uma escola inteira durante um bimestre.',
    cost: 1499.9,
    currency: 'BRL',
    points: 20000,
    recommended: 1,
  },
  { id: 'pkg_demo_usd', name: 'Classroom', description: 'One classroom for a term.', cost: 29.99, currency: 'USD', points: 1000, recommended: 0 },
  { id: 'pkg_demo_eur', name: 'Aula', description: 'Una clase durante un trimestre.', cost: 27.5, currency: 'EUR', points: 1000, recommended: 0 },
]

/** Demo prices of what the product charges for (points per generated item). */
const PRICES: Record<(typeof SYSTEM_CONTENT_KEYS)[number], [string, number]> = {
  'lesson.summary': ['Resumo da aula', 5],
  'lesson.class_plan': ['Plano de aula', 10],
  'lesson.handout': ['Apostila', 15],
  'lesson.slides': ['Slides', 20],
  'lesson.narration': ['Narração', 25],
  'lesson.narration_audio': ['Áudio da narração (por 1.000 caracteres)', 2],
  'lesson.persona_video': ['Vídeo com persona', 80],
  'lesson.dialogs': ['Diálogos', 10],
  'lesson.qa_pairs': ['Perguntas e respostas', 5],
  'lesson.tasks': ['Tarefas', 10],
  'tms.model_generation': ['Geração de modelo de tarefa', 15],
  'persona.animation': ['Animação de persona', 60],
  'persona.voice_clone': ['Clonagem de voz', 100],
  'tms.answer_revision': ['Revisão de resposta por IA', 10],
}

/** Starting balances, issued through the ledger itself (an issuance transaction each), never written directly. */
const GRANTS: [string, AccountRef, number][] = [
  ['seed_demo_realm', realmWallet('demo'), 20000],
  ['seed_demo_root', userWallet('demo', 'root@demo'), 5000],
  ['seed_demo_manager', userWallet('demo', 'manager@demo'), 1000],
  ['seed_demo_teacher', userWallet('demo', 'teacher@demo'), 300],
]

/** A credit package of `realm` (row builder shared with the tests' factories). */
export function packageRow(
  db: D1Database,
  realm: string,
  p: { id: string; name: string; description: string; cost: number; currency: string; points: number; recommended: number },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ledger_package (id, realm, name, description, cost, currency, points, enabled, recommended, created_at, updated_at, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, 'seed') ON CONFLICT (id) DO NOTHING`,
    )
    .bind(p.id, realm, p.name, p.description, p.cost, p.currency, p.points, p.recommended, at, at)
}

/** A starting balance issued through the ledger itself (an issuance transaction), never written directly. */
export function issuanceRows(db: D1Database, realm: string, id: string, account: AccountRef, points: number, at: string): D1PreparedStatement[] {
  return postingStatements(
    db,
    {
      id,
      realm,
      type: 'issuance',
      actor: 'seed',
      description: 'Demo starting balance',
      lines: [
        { account: issuanceAccount(realm), amount: -points },
        { account, amount: points },
      ],
      billingKey: `BK-SEED-${id.toUpperCase()}`,
      createdAt: at,
    },
    { once: true },
  )
}

/** The ledger's demo data as idempotent statements (a second run changes nothing), for seedDemo's batch. */
export function seedLedger(db: D1Database): D1PreparedStatement[] {
  const now = new Date().toISOString()
  return [
    ...PACKAGES.map((p) => packageRow(db, 'demo', p, now)),
    ...Object.entries(PRICES).map(([key, [name, points]]) =>
      db
        .prepare(
          `INSERT INTO ledger_content (realm, key, name, points, is_system, updated_at, updated_by) VALUES ('demo', ?, ?, ?, 1, ?, 'seed') ON CONFLICT DO NOTHING`,
        )
        .bind(key, name, points, now),
    ),
    ...GRANTS.flatMap(([id, account, points]) => issuanceRows(db, 'demo', id, account, points, now)),
  ]
}
