import { PERMISSIONS, PLATFORM_ROLE, isPlatformPermission, type Permission } from '#shared/schemas/permission'
import { seedLedger } from './ledger'
import { seedChannels } from './channels'
import { seedFeed } from './feed'
import { seedRealmAdmin } from './realm-admin'
import { seedAchievements } from './achievement'
import { seedLessons } from './lesson'
import { seedSurveys } from './survey'
import { seedTms } from './tms'

/**
 * Demo data for local runs and tests: realms `demo` and `escola`, their hosts, realistic roles and demo accounts.
 * Every statement is an insert that ignores existing rows, so seeding twice changes nothing.
 * The demo password is for local use only; production realms are created through the console.
 */
export const DEMO_PASSWORD = 'demo1234'
/** Signs the local state portal's access tokens for realm escola (local demo data only). */
export const DEMO_PORTAL_SECRET = 'escola-demo-portal-secret'

export interface DemoRealm {
  code: string
  name: string
  host: string
  values: Record<string, unknown>
}

export const DEMO_REALMS: DemoRealm[] = [
  {
    code: 'demo',
    name: 'Demo Academy',
    host: 'demo.localhost',
    values: {
      canonical_name: 'Demo Academy',
      nick_suffix: '@demo',
      allowed_signin: JSON.stringify(['iptv', 'google']),
      logo_url: '/brand/demo-logo.svg',
      favicon_url: '/brand/demo-favicon.svg',
      terms: '/brand/demo-terms.html',
      privacy: '/brand/demo-privacy.html',
      // Unrestricted: every role with dashboard access uses demo's console (teachers author tasks there). escola
      // restricts it (below), so its teacher is refused at the console.
      allowed_roles: JSON.stringify([]),
      auth_type: JSON.stringify({ 'demo.edu': 'teacher', 'aluno.demo.edu': 'student' }),
      allowed_award: JSON.stringify(['life', 'product']),
      ledger_enabled: 1,
      persona_enabled: 1,
      tms_enable: 1,
      season_enable: 1,
      development: 1,
      // Google sign-in: the console's OAuth client id at the issuer (any value works with the local test issuer).
      google_client_id: 'demo-console.apps.googleusercontent.com',
      // The room feed (issue 13) and the conference deep link's app and stores (example addresses).
      feed_enabled: 1,
      app_scheme: 'demoacademy',
      ios_store_url: 'https://apps.apple.com/app/demo-academy/id0000000000',
      android_store_url: 'https://play.google.com/store/apps/details?id=example.demo.academy',
    },
  },
  {
    code: 'escola',
    name: 'Escola Estadual Modelo',
    host: 'escola.localhost',
    values: {
      canonical_name: 'Rede Estadual de Ensino',
      nick_suffix: '@escola',
      allowed_signin: JSON.stringify(['employee', 'employee_token', 'iptv']),
      logo_url: '/brand/escola-logo.svg',
      favicon_url: '/brand/escola-favicon.svg',
      terms: '/brand/escola-terms.html',
      privacy: '/brand/escola-privacy.html',
      allowed_roles: JSON.stringify(['manager', 'root', 'support', 'admin']),
      ledger_enabled: 0,
      persona_enabled: 0,
      tms_enable: 1,
      // Every sign-in asks for a captcha (a proof of work the browser solves in the background).
      captcha_enabled: 1,
      captcha_type: 'pow',
      // The state single sign-on portal public staff are sent to; locally a page that explains the stand-in.
      token_sso_url: '/brand/escola-sso.html',
      // Secret of the local state-portal adapter (employee-token sign-in); local demo data only.
      employee_token_secret: DEMO_PORTAL_SECRET,
    },
  },
]

const all = PERMISSIONS as readonly Permission[]
const only = (...prefixes: string[]) => all.filter((p) => prefixes.some((x) => p.startsWith(x)))
const reading = (p: string) => /_(list|get)$/.test(p)

/** Every permission that stays inside one realm tree (PLATFORM_PERMISSIONS are the others). */
const realmWide = all.filter((p) => !isPlatformPermission(p))

/**
 * Demo roles with sensible permission sets. `root` holds every permission of its realm tree and none of the platform
 * ones; `platform` (realm demo only, held by platform@demo) holds every permission; `student` none of the console.
 * `realms` limits a role to some realms (default: every demo realm).
 */
export const DEMO_ROLES: { role: string; description: string; permissions: readonly string[]; realms?: readonly string[] }[] = [
  { role: 'root', description: 'Realm root: every permission within the realm and its child realms; no platform-level permission.', permissions: realmWide },
  {
    role: PLATFORM_ROLE,
    description: 'Platform operator: every permission, in every realm, platform-level ones included.',
    permissions: all,
    realms: ['demo'],
  },
  {
    role: 'admin',
    description: 'Realm administrator: everything inside the realm and its children.',
    permissions: realmWide,
  },
  {
    role: 'manager',
    description: 'Pedagogical manager: content, analytics, reports and users (read).',
    permissions: [
      'dashboard_dashboard_access',
      'mas_realm_list',
      'mas_realm_get',
      'mas_user_list',
      'mas_user_get',
      'mas_report_list',
      ...only('analytics_', 'reports_', 'tms_', 'survey_', 'achievement_', 'lesson_', 'genesis_', 'quiz_', 'poll_'),
      ...only('ledger_').filter(reading),
      'ledger_transfer_create',
      'ledger_balance_list',
      'mas_file_upload',
      ...only('room_').filter(reading),
    ],
  },
  {
    role: 'support',
    description: 'Support desk: users, complaint reports, technical logs.',
    permissions: [
      'dashboard_dashboard_access',
      'mas_realm_get',
      'mas_realm_technical',
      'mas_report_list',
      'mas_audit_log_list',
      'mas_user_list',
      'mas_user_get',
      'mas_user_edit',
      'mas_user_disable',
      'analytics_analytics_module',
      ...only('room_', 'sns_', 'csm_').filter(reading),
    ],
  },
  {
    role: 'teacher',
    description: 'Teacher: authors, publishes and corrects tasks, lessons and surveys.',
    permissions: [
      'dashboard_dashboard_access',
      'analytics_tms_module',
      ...only('tms_').filter((p) => !/^tms_(category|assessed_skill|genre)_(create|edit|delete)$/.test(p)),
      ...only('survey_', 'lesson_', 'achievement_', 'genesis_', 'quiz_', 'poll_'),
      ...only('room_room_', 'asset_', 'persona_').filter(reading),
      'ledger_content_list',
      'mas_file_upload',
    ],
  },
  {
    role: 'moderator',
    description: 'Moderator: channels, rooms, sessions, live quizzes and polls, word filter.',
    permissions: [
      'dashboard_dashboard_access',
      'mas_report_list',
      'mas_word_filter_get',
      'mas_word_filter_edit',
      'analytics_csm_module',
      ...only('sns_', 'room_', 'csm_'),
      'quiz_quiz_list',
      'quiz_quiz_get',
      'quiz_quiz_control',
      'poll_poll_list',
      'poll_poll_get',
      'poll_poll_control',
    ],
  },
  { role: 'student', description: 'Student: mobile-web tasks and lessons only; no console access.', permissions: [] },
]

export interface DemoUser {
  realm: string
  nick: string
  name: string
  email: string
  roles: string[]
  /** Employee id (document type + number + state, normalised) for employee sign-in. */
  external_id?: string
}

export const DEMO_USERS: DemoUser[] = [
  { realm: 'demo', nick: 'root@demo', name: 'Root Demo', email: 'root@demo.edu', roles: ['root'] },
  // The one platform operator of the demo data: every realm, the global configuration, infra settings.
  { realm: 'demo', nick: 'platform@demo', name: 'Operadora da Plataforma', email: 'platform@demo.edu', roles: [PLATFORM_ROLE] },
  { realm: 'demo', nick: 'manager@demo', name: 'Marina Souza', email: 'marina@demo.edu', roles: ['manager'] },
  { realm: 'demo', nick: 'teacher@demo', name: 'Paulo Lima', email: 'paulo@demo.edu', roles: ['teacher'] },
  { realm: 'demo', nick: 'student@demo', name: 'Ana Costa', email: 'ana@aluno.demo.edu', roles: ['student'] },
  // A second teacher whose password the recovery walkthrough (and its browser test) may change.
  { realm: 'demo', nick: 'tutor@demo', name: 'Rita Tutora', email: 'rita@demo.edu', roles: ['teacher'] },
  { realm: 'escola', nick: 'root@escola', name: 'Direção Escola', email: 'direcao@escola.sp.gov.br', roles: ['root'] },
  // Employees of the state network: they sign in with their document (see DEMO_EMPLOYEES).
  { realm: 'escola', nick: 'gestora@escola', name: 'Beatriz Gestora', email: 'beatriz@escola.sp.gov.br', roles: ['manager'], external_id: 'RG123456789SP' },
  {
    realm: 'escola',
    nick: 'professor@escola',
    name: 'Carlos Professor',
    email: 'carlos@escola.sp.gov.br',
    roles: ['teacher'],
    external_id: 'CIN98765432100MG',
  },
  { realm: 'escola', nick: 'coordenadora@escola', name: 'Lucía Coordenadora', email: 'lucia@escola.sp.gov.br', roles: ['admin'], external_id: 'RNEV1234567' },
]

/** The demo employees as they type their document on the employee form (README). */
export const DEMO_EMPLOYEES = [
  { doc_type: 'rg', doc_number: '12.345.678-9', uf: 'SP', nick: 'gestora@escola', id: 'RG123456789SP' },
  { doc_type: 'cin', doc_number: '987.654.321-00', uf: 'MG', nick: 'professor@escola', id: 'CIN98765432100MG' },
  { doc_type: 'rne', doc_number: 'V123456-7', uf: '-', nick: 'coordenadora@escola', id: 'RNEV1234567' },
] as const

/** OAuth2 client applications of the demo realms (public clients with PKCE). */
export const DEMO_OAUTH_CLIENTS = [
  {
    realm: 'demo',
    client_id: 'demo-reports',
    name: 'Relatórios Demo',
    redirect_uris: ['http://localhost:8790/callback', 'http://127.0.0.1:8790/callback'],
    scopes: ['profile', 'email', 'permissions'],
  },
]

/** Seeds the demo data; `hash` turns the demo password into a stored hash (only called for missing users). */
export async function seedDemo(db: D1Database, hash: (password: string) => Promise<string>): Promise<{ inserted: number }> {
  const statements: D1PreparedStatement[] = []
  for (const r of DEMO_REALMS) {
    const cols = ['code', 'name', ...Object.keys(r.values)]
    statements.push(
      db
        .prepare(`INSERT INTO realm (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (code) DO NOTHING`)
        .bind(r.code, r.name, ...Object.values(r.values)),
      db.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?) ON CONFLICT (host) DO NOTHING').bind(r.host, r.code),
    )
    for (const role of DEMO_ROLES) {
      if (role.realms && !role.realms.includes(r.code)) continue
      statements.push(
        db
          .prepare(`INSERT INTO role (realm, role, description, updated_by) VALUES (?, ?, ?, 'seed') ON CONFLICT DO NOTHING`)
          .bind(r.code, role.role, role.description),
        ...[...new Set(role.permissions)].map((p) =>
          db.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').bind(r.code, role.role, p),
        ),
      )
    }
  }
  const existing = new Set(((await db.prepare("SELECT realm || '/' || nick AS id FROM user").all<{ id: string }>()).results ?? []).map((u) => u.id))
  for (const u of DEMO_USERS) {
    if (existing.has(`${u.realm}/${u.nick}`)) continue
    statements.push(
      db
        .prepare('INSERT INTO user (realm, nick, name, email, external_id, password_hash, origin_realm) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
        .bind(u.realm, u.nick, u.name, u.email, u.external_id ?? '', await hash(DEMO_PASSWORD), u.realm),
      ...u.roles.map((role, position) =>
        db.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').bind(u.realm, u.nick, role, position),
      ),
    )
  }
  for (const client of DEMO_OAUTH_CLIENTS) {
    statements.push(
      db
        .prepare('INSERT INTO oauth_client (realm, client_id, name, redirect_uris, scopes) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
        .bind(client.realm, client.client_id, client.name, JSON.stringify(client.redirect_uris), JSON.stringify(client.scopes)),
    )
  }
  statements.push(...seedLedger(db))
  statements.push(...(await seedRealmAdmin(db, hash)))
  statements.push(...seedTms(db))
  statements.push(...seedLessons(db))
  statements.push(...seedAchievements(db))
  statements.push(...seedSurveys(db))
  statements.push(...seedChannels(db))
  statements.push(...seedFeed(db))
  const results = await db.batch(statements)
  return { inserted: results.reduce((n, r) => n + (r.meta.changes ?? 0), 0) }
}
