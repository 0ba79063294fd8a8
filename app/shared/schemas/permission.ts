/**
 * The permission catalogue (`module_resource_action`). Names the specification shows are kept exactly;
 * the rest follow the same convention (list / get / create / edit / delete per area). docs/permissions.md
 * renders this table; tests check the route manifest only uses names from here.
 */
const crud = (area: string, actions = ['list', 'get', 'create', 'edit', 'delete']) => actions.map((a) => `${area}_${a}`)

export const PERMISSIONS = [
  // dashboard
  'dashboard_dashboard_access',
  // mas_* (realm administration)
  'mas_realm_list',
  'mas_realm_list_all',
  'mas_realm_get',
  'mas_realm_create',
  'mas_realm_edit',
  'mas_realm_delete',
  'mas_realm_change',
  'mas_realm_edit_infra',
  'mas_realm_technical',
  'mas_config_get',
  'mas_config_edit',
  ...crud('mas_role'),
  ...crud('mas_user'),
  'mas_user_import',
  'mas_user_disable',
  'mas_report_list',
  'mas_report_edit',
  'mas_word_filter_get',
  'mas_word_filter_edit',
  'mas_file_upload',
  ...crud('mas_extra_field'),
  ...crud('mas_metaverse_room', ['list', 'create', 'edit', 'delete']),
  'mas_audit_log_list',
  // analytics and reports
  'analytics_analytics_module',
  'analytics_global_module',
  'analytics_tms_module',
  'analytics_csm_module',
  'analytics_ledger_module',
  'reports_reports_module',
  // ledger
  'ledger_content_list',
  'ledger_content_edit',
  'ledger_content_delete',
  'ledger_package_list',
  'ledger_package_list_others',
  'ledger_package_create',
  'ledger_package_edit',
  'ledger_package_delete',
  'ledger_transfer_list',
  'ledger_transfer_create',
  'ledger_transfer_cross_realm',
  'ledger_sponsor_create',
  'ledger_transaction_debit',
  'ledger_transaction_reverse',
  'ledger_balance_list',
  'ledger_wallet_get_others',
  // invite
  'invite_invite_list',
  'invite_invite_create',
  'invite_invite_delete',
  // room
  ...crud('room_room'),
  ...crud('room_category'),
  ...crud('room_card'),
  'room_metaverse_token_generate',
  // tms_* (tasks)
  ...crud('tms_model'),
  'tms_task_list_by_target',
  'tms_task_list_others',
  'tms_task_get',
  'tms_task_publish',
  'tms_task_edit',
  'tms_task_delete',
  'tms_task_correct',
  'tms_token_generate',
  'tms_token_list',
  ...crud('tms_question_bank'),
  ...crud('tms_category'),
  ...crud('tms_assessed_skill'),
  ...crud('tms_genre'),
  'tms_answer_list',
  // cgs_* (content generation settings)
  ...crud('cgs_agent'),
  ...crud('cgs_content_config'),
  // csm (sessions and recordings)
  ...crud('csm_session'),
  'csm_session_rerecord',
  ...crud('csm_category'),
  // sns (channels and feed)
  ...crud('sns_channel'),
  ...crud('sns_channel_category'),
  'sns_feed_list',
  'sns_feed_edit',
  // genesis (AI generation)
  'genesis_model_generate',
  'genesis_lesson_model_generate',
  // persona
  ...crud('persona_persona'),
  ...crud('persona_dialog'),
  ...crud('persona_assistant'),
  // litmetrix
  'litmetrix_litmetrix_access',
  // quiz and poll
  ...crud('quiz_quiz'),
  'quiz_quiz_control',
  ...crud('poll_poll'),
  'poll_poll_control',
  // asset
  ...crud('asset_asset'),
  // survey_*
  ...crud('survey_model'),
  'survey_survey_list',
  'survey_survey_publish',
  'survey_survey_edit',
  'survey_survey_delete',
  'survey_survey_result',
  // achievement_*
  ...crud('achievement_objective'),
  ...crud('achievement_goal'),
  ...crud('achievement_track'),
  // others (lessons)
  ...crud('lesson_model'),
  ...crud('lesson_lesson'),
] as const

export type Permission = (typeof PERMISSIONS)[number]
export type PermissionMap = Record<string, boolean>

/**
 * Platform-level permissions: each reaches beyond one realm tree (or changes what every realm runs on), so a realm's
 * own top role (`root`) does not hold them; only the platform operator role does. Granting them follows the same
 * ceiling as every permission (only someone holding one may give it), they are never copied into a new realm's roles,
 * and migration 0010 strips them from every role not named `platform` (keep its list equal to this one).
 */
export const PLATFORM_PERMISSIONS: Readonly<Partial<Record<Permission, string>>> = {
  mas_realm_list_all:
    'Lists, switches to and administers every realm, not only the home realm and its descendants; also reads server errors outside any realm.',
  mas_config_get: 'Reads the global configuration shared by every realm (platform word filter, blocked media hosts, defaults of new realms).',
  mas_config_edit: 'Changes the global configuration, which applies to every realm.',
  mas_realm_edit_infra: 'Changes servers, storage credentials, hosts, the development flag and sign-in secrets: what a realm runs on, not what it teaches.',
  ledger_transfer_cross_realm: 'Spends the wallet of another realm (from_realm) instead of the caller’s own.',
}

export function isPlatformPermission(name: string): boolean {
  return Object.hasOwn(PLATFORM_PERMISSIONS, name)
}

/** Name of the platform operator role (every permission, platform ones included). */
export const PLATFORM_ROLE = 'platform'

/** Prefix groups of seed 000 §3, in display order; anything else falls in `others`. */
export const PERMISSION_GROUPS = [
  'dashboard',
  'mas',
  'analytics',
  'reports',
  'ledger',
  'invite',
  'room',
  'tms',
  'cgs',
  'csm',
  'sns',
  'genesis',
  'persona',
  'litmetrix',
  'quiz',
  'poll',
  'asset',
  'survey',
  'achievement',
  'others',
] as const
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number]

export function permissionGroup(permission: string): PermissionGroup {
  const prefix = permission.split('_')[0]
  return (PERMISSION_GROUPS as readonly string[]).includes(prefix) && prefix !== 'others' ? (prefix as PermissionGroup) : 'others'
}

const known = new Set<string>(PERMISSIONS)
export function isPermission(name: string): name is Permission {
  return known.has(name)
}

/** Keys of a role object that are not permissions (seed 000 §6). */
export const ROLE_META_KEYS = ['realm', 'role', 'description', 'updated_at', 'updated_by'] as const

/** The full catalogue as a map, true where granted. */
export function permissionMap(granted: Iterable<string>): PermissionMap {
  const set = new Set(granted)
  return Object.fromEntries(PERMISSIONS.map((p) => [p, set.has(p)]))
}
