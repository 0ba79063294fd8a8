import type { IconName } from '~/components/ui/icon-paths'
import type { Access, RealmFlag } from './access'
import { PLAIN_ENTITIES } from './entities/index'

/**
 * The route manifest: every console route of the specification (seed 000 §2.2–§2.4, seeds 001 and 002 §2)
 * with its requirement. The server guard (requireRoute), the sidebar, the overview and the permission tests
 * all read it. A route without its own screen file is served by the console's splat route, behind the same
 * guard, with an honest "not available yet" state.
 */
export interface RouteEntry {
  id: string
  /** Path pattern with `:param` segments. */
  path: string
  access: Access
  /** i18n key of the page title. */
  title: string
  /** Works without a session (seed 000 §2.3). */
  public?: boolean
  /** Leaving with unsaved data warns (seed 000 §2.4). */
  unsaved?: boolean
  /** The sidebar is hidden on this page (full-screen previews and live controls). */
  hideSidebar?: boolean
  /** Another address of the screen at this path: the route guards, then redirects there (no screen of its own). */
  redirectTo?: string
}

const all = (...permissions: string[]): Access => ({ all: permissions })
const any = (...permissions: string[]): Access => ({ any: permissions })
const flag = (access: Access, ...flags: RealmFlag[]): Access => ({ ...access, flags: [...(access.flags ?? []), ...flags] })

function route(id: string, path: string, access: Access, title: string, extra: Partial<RouteEntry> = {}): RouteEntry {
  return { id, path, access, title, ...extra }
}

/** list / create / edit(:param) routes of one resource, named `<id>.list`, `<id>.create`, `<id>.edit`. */
function resource(
  id: string,
  path: string,
  perm: string,
  param: string,
  opts: { flags?: RealmFlag[]; unsaved?: boolean; redirectTo?: string } = {},
): RouteEntry[] {
  const f = (a: Access) => (opts.flags ? flag(a, ...opts.flags) : a)
  const to = (suffix: string) => (opts.redirectTo ? { redirectTo: `${opts.redirectTo}${suffix}` } : {})
  return [
    route(`${id}.list`, path, f(all(`${perm}_list`)), `pages.${id}.list`, to('')),
    route(`${id}.create`, `${path}/create`, f(all(`${perm}_create`)), `pages.${id}.create`, { unsaved: opts.unsaved, ...to('/create') }),
    route(`${id}.edit`, `${path}/edit/:${param}`, f(all(`${perm}_edit`)), `pages.${id}.edit`, { unsaved: opts.unsaved, ...to(`/edit/:${param}`) }),
  ]
}

const TASK_LIST = any('tms_task_list_by_target', 'tms_task_list_others')
const TECHNICAL = any('mas_realm_technical', 'mas_realm_edit_infra')

export const ROUTES: RouteEntry[] = [
  route('overview', '/', {}, 'nav.overview'),

  // Analytics and reports
  route('analytics.general', '/analytics/general', all('analytics_analytics_module', 'analytics_global_module'), 'pages.analytics.general'),
  route('analytics.task', '/analytics/task', all('analytics_tms_module'), 'pages.analytics.task'),
  route('analytics.session', '/analytics/session', all('analytics_csm_module'), 'pages.analytics.session'),
  route('analytics.ledger', '/analytics/ledger', flag(all('analytics_ledger_module'), 'ledger_enabled'), 'pages.analytics.ledger'),
  route('reports.session', '/reports/session', all('reports_reports_module'), 'pages.reports.session'),
  route('reports.ledger', '/reports/ledger', flag(all('reports_reports_module'), 'ledger_enabled'), 'pages.reports.ledger'),

  // Tasks (seed 001 §2)
  ...resource('tms.model', '/tms/model', 'tms_model', 'modelId', { unsaved: true }),
  route('tms.model.preview', '/tms/model/preview/:modelId', all('tms_model_get'), 'pages.tms.model.preview', { hideSidebar: true }),
  route('tms.model.resolution', '/tms/model/resolution/:modelId', all('tms_model_get'), 'pages.tms.model.resolution', { hideSidebar: true }),
  route('tms.task.list', '/tms/task', TASK_LIST, 'pages.tms.task.list'),
  route('tms.task.edit', '/tms/task/edit/:modelId', all('tms_task_publish'), 'pages.tms.task.edit', { unsaved: true }),
  route('tms.task.preview', '/tms/task/preview/:modelId', all('tms_model_get'), 'pages.tms.task.preview', { hideSidebar: true }),
  route('tms.task.detail', '/tms/task/detail/:taskId', all('tms_task_get'), 'pages.tms.task.detail'),
  route('tms.task.correct', '/tms/task/:taskId/:answerId/correct', all('tms_task_correct'), 'pages.tms.task.correct'),
  ...resource('tms.question_bank', '/tms/question_bank', 'tms_question_bank', 'questionId', { unsaved: true }),
  route('tms.answer.list', '/tms/answer', all('tms_answer_list'), 'pages.tms.answer.list'),
  route('tms.token.list', '/tms/token', { all: ['tms_token_generate'], any: TASK_LIST.any }, 'pages.tms.token.list'),
  route('tms.token.edit', '/tms/token/edit/room/:roomName/task/:taskId', { all: ['tms_token_generate'], any: TASK_LIST.any }, 'pages.tms.token.edit'),
  // Plain entities (app/shared/entities/): list, create and edit of each, behind its declared permissions.
  ...PLAIN_ENTITIES.flatMap((e) => resource(e.route.id, e.route.path, e.permission, e.route.param, { unsaved: e.route.unsaved })),

  // Surveys
  route('survey.model.list', '/survey/model', all('survey_model_list'), 'pages.survey.model.list'),
  route('survey.model.create', '/survey/model/create', all('survey_model_create'), 'pages.survey.model.create', { unsaved: true }),
  route('survey.model.edit', '/survey/model/edit/:modelId', all('survey_model_edit'), 'pages.survey.model.edit', { unsaved: true }),
  route('survey.survey.list', '/survey/survey', all('survey_survey_list'), 'pages.survey.survey.list'),
  route('survey.survey.create', '/survey/survey/create', all('survey_survey_publish'), 'pages.survey.survey.create', { unsaved: true }),
  route('survey.survey.edit', '/survey/survey/edit/:modelId', all('survey_survey_publish'), 'pages.survey.survey.edit', { unsaved: true }),
  route('survey.survey.detail', '/survey/survey/detail/:surveyId', all('survey_survey_list'), 'pages.survey.survey.detail', { unsaved: true }),
  route('survey.survey.revise', '/survey/survey/:surveyId/:answerId/revise', all('survey_survey_edit'), 'pages.survey.survey.revise'),
  route('survey.survey.result', '/survey/survey/:surveyId/result', all('survey_survey_result'), 'pages.survey.survey.result'),

  // Lessons and content generation
  route('lesson.model.list', '/lesson/model', all('lesson_model_list'), 'pages.lesson.model.list'),
  route('lesson.model.edit', '/lesson/model/edit/:lessonId', all('lesson_model_edit'), 'pages.lesson.model.edit', { unsaved: true }),
  route('lesson.model.preview', '/lesson/model/preview/:modelId', all('lesson_model_get'), 'pages.lesson.model.preview', { hideSidebar: true }),
  route('lesson.lesson.list', '/lesson/lesson', all('lesson_lesson_list'), 'pages.lesson.lesson.list'),
  route('lesson.lesson.edit', '/lesson/lesson/edit/:lessonId', all('lesson_lesson_edit'), 'pages.lesson.lesson.edit', { unsaved: true }),
  route('lesson.lesson.preview', '/lesson/lesson/preview/:modelId', all('lesson_lesson_get'), 'pages.lesson.lesson.preview', { hideSidebar: true }),
  route('genesis.model', '/genesis/model/generate', all('genesis_model_generate'), 'pages.genesis.model', { unsaved: true }),
  route('genesis.lesson_model', '/genesis/lesson_model/generate', all('genesis_lesson_model_generate'), 'pages.genesis.lesson_model', { unsaved: true }),

  // Personas (persona_enabled)
  ...resource('persona', '/personai/persona', 'persona_persona', 'personaId', { flags: ['persona_enabled'] }),
  route('persona.dialog.list', '/personai/persona/:personaId/dialog', flag(all('persona_dialog_list'), 'persona_enabled'), 'pages.persona.dialog.list'),
  route(
    'persona.dialog.create',
    '/personai/persona/:personaId/dialog/create',
    flag(all('persona_dialog_create'), 'persona_enabled'),
    'pages.persona.dialog.create',
    { unsaved: true },
  ),
  route(
    'persona.dialog.edit',
    '/personai/persona/:personaId/dialog/edit/:dialogId',
    flag(all('persona_dialog_edit'), 'persona_enabled'),
    'pages.persona.dialog.edit',
    { unsaved: true },
  ),
  route(
    'persona.transcript.list',
    '/personai/persona/:personaId/transcript',
    flag(any('persona_persona_get', 'persona_persona_edit'), 'persona_enabled'),
    'pages.persona.transcript.list',
  ),
  route(
    'persona.transcript.detail',
    '/personai/persona/:personaId/transcript/:sessionId',
    flag(any('persona_persona_get', 'persona_persona_edit'), 'persona_enabled'),
    'pages.persona.transcript.detail',
  ),
  ...resource('assistant', '/personai/assistant', 'persona_assistant', 'assistantId', { flags: ['persona_enabled'] }),

  // Achievements and tracks
  route('goal.model', '/achievement/goal/model', all('achievement_goal_list'), 'pages.goal.model'),
  route('goal.list', '/achievement/goal/goal', all('achievement_goal_list'), 'pages.goal.list'),
  route('goal.create', '/achievement/goal/create', all('achievement_goal_create'), 'pages.goal.create'),
  route('goal.edit', '/achievement/goal/edit/:goalId', all('achievement_goal_edit'), 'pages.goal.edit'),

  // Live quizzes and polls
  route('quiz.list', '/quiz', all('quiz_quiz_list'), 'pages.quiz.list'),
  route('quiz.create', '/quiz/create', all('quiz_quiz_create'), 'pages.quiz.create'),
  route('quiz.edit', '/quiz/edit/:quizId', all('quiz_quiz_edit'), 'pages.quiz.edit'),
  route('quiz.control', '/quiz/control/:quizId', all('quiz_quiz_control'), 'pages.quiz.control', { hideSidebar: true }),
  route('poll.list', '/poll', all('poll_poll_list'), 'pages.poll.list'),
  route('poll.create', '/poll/create', all('poll_poll_create'), 'pages.poll.create'),
  route('poll.edit', '/poll/edit/:pollId', all('poll_poll_edit'), 'pages.poll.edit'),
  route('poll.control', '/poll/control/:pollId', all('poll_poll_control'), 'pages.poll.control', { hideSidebar: true }),

  // Credits (ledger_enabled)
  route('ledger.content.list', '/ledger/content', flag(all('ledger_content_list'), 'ledger_enabled'), 'pages.ledger.content.list'),
  route('ledger.content.edit', '/ledger/content/edit/:contentId', flag(all('ledger_content_edit'), 'ledger_enabled'), 'pages.ledger.content.edit'),
  ...resource('ledger.package', '/ledger/package', 'ledger_package', 'packageId', { flags: ['ledger_enabled'] }),
  route('ledger.transfer', '/ledger/transfer/create', flag(all('ledger_transfer_create'), 'ledger_enabled'), 'pages.ledger.transfer'),
  route('ledger.sponsor', '/ledger/sponsor/create', flag(all('ledger_sponsor_create'), 'ledger_enabled'), 'pages.ledger.sponsor'),
  route('ledger.balance', '/ledger/balance', flag(all('ledger_balance_list'), 'ledger_enabled'), 'pages.ledger.balance'),
  route('ledger.purchase', '/ledger/package/purchase', flag({}, 'ledger_enabled'), 'pages.ledger.purchase'),
  route('ledger.purchase.package', '/ledger/package/purchase/:packageId', flag({}, 'ledger_enabled'), 'pages.ledger.purchase'),

  // Realm administration
  route('realm.list', '/realm', any('mas_realm_list', 'mas_realm_list_all'), 'pages.realm.list'),
  route('realm.global_config', '/realm/global_config', all('mas_config_get'), 'pages.realm.global_config'),
  route('realm.create', '/realm/create', all('mas_realm_create'), 'pages.realm.create'),
  route('realm.edit', '/realm/edit/:code', all('mas_realm_edit'), 'pages.realm.edit'),
  route('role.list', '/realm/role', all('mas_role_list'), 'pages.role.list'),
  route('role.create', '/realm/role/create', all('mas_role_create'), 'pages.role.create', { unsaved: true }),
  route('role.edit', '/realm/role/:realm/edit/:role', all('mas_role_edit'), 'pages.role.edit', { unsaved: true }),
  route('realm.report', '/realm/report', all('mas_report_list'), 'pages.realm.report'),
  // The room category tree's screens are room/category's (seed 002); realm/category (seed 000) redirects there.
  ...resource('realm.category', '/realm/category', 'room_category', 'categoryId', { redirectTo: '/room/category' }),
  route('realm.word_filter', '/realm/word_filter', all('mas_word_filter_get'), 'pages.realm.word_filter'),
  route('realm.ai', '/realm/ai', any('mas_realm_get', 'mas_realm_edit'), 'pages.realm.ai'),
  route('realm.extra_field', '/realm/extra_field', all('mas_extra_field_list'), 'pages.realm.extra_field'),

  // Content generation settings
  // cgs.agent.list|create|edit come from its plain-entity declaration (app/shared/entities/cgs-agent.ts).
  route('cgs.content_config', '/cgs/content_config', all('cgs_content_config_list'), 'pages.cgs.content_config'),
  route('cgs.content_config.type', '/cgs/content_config/:type', all('cgs_content_config_list'), 'pages.cgs.content_config.type'),
  route('cgs.content_config.create', '/cgs/content_config/:type/create', all('cgs_content_config_create'), 'pages.cgs.content_config.create', {
    unsaved: true,
  }),
  route('cgs.content_config.edit', '/cgs/content_config/:type/edit/:contentConfigId', all('cgs_content_config_edit'), 'pages.cgs.content_config.edit', {
    unsaved: true,
  }),

  // Users, channels, rooms, sessions, metaverse, assets, technical
  ...resource('user', '/user', 'mas_user', 'nick'),
  ...resource('channel', '/channel', 'sns_channel', 'channelId'),
  // The live view of a channel (issue 13): owners and operators moderate; the party gives each their role.
  route('channel.live', '/channel/live/:channelId', any('sns_channel_get', 'sns_channel_edit'), 'pages.channel.live'),
  ...resource('room', '/room', 'room_room', 'room'),
  // The live view of a console room or breakout (issue 13 "rooms go live"): room editors join as admins.
  route('room.live', '/room/live/:roomId', any('room_room_get', 'room_room_edit'), 'pages.room.live'),
  ...resource('room.category', '/room/category', 'room_category', 'categoryId'),
  route('session.list', '/session', all('csm_session_list'), 'pages.session.list'),
  route('session.detail', '/session/detail/:sessionId', all('csm_session_get'), 'pages.session.detail'),
  route('session.create', '/session/create', all('csm_session_create'), 'pages.session.create'),
  route('session.edit', '/session/edit/:sessionId', all('csm_session_edit'), 'pages.session.edit', { unsaved: true }),
  ...resource('asset', '/asset', 'asset_asset', 'asset_id'),
  route('technical.logs', '/technical/logs', TECHNICAL, 'pages.technical.logs'),
  route('technical.audit_logs', '/technical/audit_logs', TECHNICAL, 'pages.technical.audit_logs'),

  // Public (seed 000 §2.3)
  route('public.recover', '/authentication/recover', {}, 'pages.public.recover', { public: true }),
  route('public.deeplink', '/deeplink', {}, 'pages.public.deeplink', { public: true }),
  route('public.deeplink.app', '/deeplink/app', {}, 'pages.public.deeplink', { public: true }),
  route('public.mobile.csm', '/mobile/csm', {}, 'pages.public.mobile.csm', { public: true }),
  route('public.mobile.csm.watch', '/mobile/csm/watch/:sessionId', {}, 'pages.public.mobile.csm', { public: true }),
  route('public.mobile.tms', '/mobile/tms', {}, 'pages.public.mobile.tms', { public: true }),
  route('public.mobile.tms.apply', '/mobile/tms/task/:taskId/apply', {}, 'pages.public.mobile.tms.apply', { public: true }),
  route('public.mobile.tms.visualize', '/mobile/tms/task/:taskId/:answerId/visualize', {}, 'pages.public.mobile.tms.visualize', { public: true }),
  route('public.mobile.tms.expired', '/mobile/tms/task/expired/:taskId/:answerId/visualize', {}, 'pages.public.mobile.tms.visualize', { public: true }),
  route('public.mobile.feed', '/mobile/feed', {}, 'pages.public.mobile.feed', { public: true }),
  route('public.mobile.lesson', '/mobile/lesson', {}, 'pages.public.mobile.lesson', { public: true }),
  route('public.mobile.lesson.apply', '/mobile/lesson/:lessonId/apply', {}, 'pages.public.mobile.lesson.apply', { public: true }),
  route('public.mobile.survey.apply', '/mobile/survey/:surveyId/apply', {}, 'pages.public.mobile.survey.apply', { public: true }),
  route('public.live', '/live/:channelId', {}, 'pages.public.live', { public: true }),
  route('public.live.room', '/live/room/:roomId', {}, 'pages.room.live', { public: true }),
  route('public.quiz', '/play/quiz/:quizId', {}, 'pages.public.quiz', { public: true }),
  route('public.poll', '/play/poll/:pollId', {}, 'pages.public.poll', { public: true }),
  route('public.persona.chat', '/personai/chat/:personaId', flag({}, 'persona_enabled'), 'pages.public.persona.chat', { public: true }),
]

const byId = new Map(ROUTES.map((r) => [r.id, r]))

/** The manifest entry with this id; throws on a typo so a guard can never silently be missing. */
export function routeById(id: string): RouteEntry {
  const found = byId.get(id)
  if (!found) throw new Error(`No route ${id} in the manifest`)
  return found
}

function toRegExp(path: string): RegExp {
  const pattern = path === '/' ? '' : path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')
  return new RegExp(`^${pattern}/?$`)
}
const matchers = ROUTES.map((r) => ({ r, re: toRegExp(r.path), statics: r.path.split('/').filter((s) => s && !s.startsWith(':')).length }))
  // Prefer the most specific pattern (most static segments), like the router does.
  .sort((a, b) => b.statics - a.statics)

/**
 * Routes without parameters by their path (a trailing slash matches too): most pages are found without trying the
 * pattern of every route in turn (about 150; `/` was the last one tried). A path with no parameter wins over every
 * pattern that also matches it, as in the order above: it has more fixed segments.
 */
const exact = new Map<string, RouteEntry>()
for (const { r } of matchers) if (!r.path.includes(':') && !exact.has(r.path)) exact.set(r.path, r)

/** The manifest entry whose pattern matches a pathname, or undefined. */
export function matchRoute(pathname: string): RouteEntry | undefined {
  const found = exact.get(pathname) ?? (/[^/]\/$/.test(pathname) ? exact.get(pathname.slice(0, -1)) : undefined)
  if (found) return found
  return matchers.find((m) => m.re.test(pathname))?.r
}

/** A concrete path for a pattern: each `:param` from `values`, else `fallback` (tests and links). */
export function samplePath(entry: RouteEntry, values: Record<string, string> = {}, fallback = 'sample'): string {
  return entry.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? fallback))
}

/** Sidebar sections (seed 000 §2.5), in order; `manage` sections sit under the "Manage" heading. */
export interface NavSection {
  id: string
  label: string
  icon: IconName
  group: 'main' | 'manage'
  items: { route: string; label: string }[]
}

const item = (routeId: string, label?: string) => ({ route: routeId, label: label ?? routeById(routeId).title })

export const NAV: NavSection[] = [
  {
    id: 'analytics',
    label: 'nav.analytics',
    icon: 'chart',
    group: 'main',
    items: [item('analytics.general'), item('analytics.task'), item('analytics.session'), item('analytics.ledger')],
  },
  { id: 'reports', label: 'nav.reports', icon: 'report', group: 'main', items: [item('reports.session'), item('reports.ledger')] },
  {
    id: 'tasks',
    label: 'nav.tasks',
    icon: 'task',
    group: 'main',
    items: [
      item('tms.model.list'),
      item('tms.task.list'),
      item('tms.question_bank.list'),
      item('tms.answer.list'),
      item('tms.token.list'),
      item('tms.category.list'),
      item('tms.assessed_skills.list'),
      item('tms.genre.list'),
      item('genesis.model'),
    ],
  },
  {
    id: 'lessons',
    label: 'nav.lessons',
    icon: 'lesson',
    group: 'main',
    items: [item('lesson.model.list'), item('lesson.lesson.list'), item('genesis.lesson_model')],
  },
  { id: 'surveys', label: 'nav.surveys', icon: 'survey', group: 'main', items: [item('survey.model.list'), item('survey.survey.list')] },
  { id: 'tracks', label: 'nav.tracks', icon: 'track', group: 'main', items: [item('track.list')] },
  { id: 'persona', label: 'nav.persona', icon: 'persona', group: 'main', items: [item('persona.list'), item('assistant.list')] },
  { id: 'achievements', label: 'nav.achievements', icon: 'trophy', group: 'main', items: [item('objective.list'), item('goal.model'), item('goal.list')] },
  { id: 'quiz', label: 'nav.quiz', icon: 'quiz', group: 'main', items: [item('quiz.list')] },
  { id: 'poll', label: 'nav.poll', icon: 'poll', group: 'main', items: [item('poll.list')] },
  {
    id: 'realm',
    label: 'nav.realm',
    icon: 'realm',
    group: 'manage',
    items: [
      item('realm.global_config'),
      item('realm.list'),
      item('role.list'),
      item('realm.report'),
      item('realm.word_filter'),
      item('realm.ai'),
      item('realm.extra_field'),
    ],
  },
  {
    id: 'credits',
    label: 'nav.credits',
    icon: 'coin',
    group: 'manage',
    items: [
      item('ledger.balance'),
      item('ledger.package.list'),
      item('ledger.content.list'),
      item('ledger.transfer'),
      item('ledger.sponsor'),
      item('ledger.purchase'),
    ],
  },
  { id: 'content_generation', label: 'nav.content_generation', icon: 'sparkle', group: 'manage', items: [item('cgs.agent.list'), item('cgs.content_config')] },
  { id: 'users', label: 'nav.users', icon: 'users', group: 'manage', items: [item('user.list')] },
  { id: 'channels', label: 'nav.channels', icon: 'channel', group: 'manage', items: [item('channel.list'), item('channel.category.list')] },
  { id: 'rooms', label: 'nav.rooms', icon: 'room', group: 'manage', items: [item('room.list'), item('room.category.list'), item('room.card.list')] },
  { id: 'sessions', label: 'nav.sessions', icon: 'video', group: 'manage', items: [item('session.list'), item('session.category.list')] },
  { id: 'metaverse', label: 'nav.metaverse', icon: 'cube', group: 'manage', items: [item('metaverse.list')] },
  { id: 'assets', label: 'nav.assets', icon: 'file', group: 'manage', items: [item('asset.list')] },
  { id: 'technical', label: 'nav.technical', icon: 'wrench', group: 'manage', items: [item('technical.logs'), item('technical.audit_logs')] },
]
