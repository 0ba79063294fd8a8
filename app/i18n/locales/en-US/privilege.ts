/** The privilege ceilings (issue 11): what a refused role or user write says, and the screens that show them. */
export default {
  'privilege.grant_ceiling': 'You cannot grant or revoke {{value}}: you do not hold that permission.',
  'privilege.own_role': 'You cannot change the role {{value}}: you hold it yourself. Ask another administrator.',
  'privilege.user_ceiling': 'This user holds permissions you do not ({{value}}); you cannot change them.',
  'privilege.root_only': 'Only a holder of the root role can change this account.',
  'errors.grant_ceiling': 'You cannot grant or revoke permissions you do not hold.',
  'errors.own_role': 'You cannot change a role you hold yourself.',
  'errors.user_ceiling': 'This user holds permissions you do not.',
  'errors.root_only': 'Only a holder of the root role can change this account.',
  'resources.role.grantable_hint': 'Only the permissions you hold are shown: they are the only ones you can grant or revoke.',
  'resources.role.outside.title': 'Also granted, beyond your reach ({{count}})',
  'resources.role.outside.hint': 'You do not hold these permissions, so you cannot revoke them; saving leaves them as they are.',
  'resources.role.own': 'You hold this role, so you cannot change it. Ask another administrator.',
  'resources.role.save_failed': 'The role was not saved',
  'resources.platform.badge': 'platform',
  'resources.platform.hint': 'Platform-level permission: it reaches beyond one realm and its tree.',
}
