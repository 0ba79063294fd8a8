/** The privilege ceilings (issue 11): what a refused role or user write says, and the screens that show them. */
export default {
  'privilege.grant_ceiling': 'Você não pode conceder nem retirar {{value}}: você não tem essa permissão.',
  'privilege.own_role': 'Você não pode alterar o perfil {{value}}: você mesmo tem esse perfil. Peça a outro administrador.',
  'privilege.user_ceiling': 'Este usuário tem permissões que você não tem ({{value}}); você não pode alterá-lo.',
  'privilege.root_only': 'Somente quem tem o perfil root pode alterar esta conta.',
  'errors.grant_ceiling': 'Você não pode conceder nem retirar permissões que não tem.',
  'errors.own_role': 'Você não pode alterar um perfil que você mesmo tem.',
  'errors.user_ceiling': 'Este usuário tem permissões que você não tem.',
  'errors.root_only': 'Somente quem tem o perfil root pode alterar esta conta.',
  'resources.role.grantable_hint': 'Aparecem só as permissões que você tem: são as únicas que você pode conceder ou retirar.',
  'resources.role.outside.title': 'Também concedidas, fora do seu alcance ({{count}})',
  'resources.role.outside.hint': 'Você não tem estas permissões, então não pode retirá-las; elas ficam como estão ao salvar.',
  'resources.role.own': 'Você tem este perfil, então não pode alterá-lo. Peça a outro administrador.',
  'resources.role.save_failed': 'O perfil não foi salvo',
  'resources.platform.badge': 'plataforma',
  'resources.platform.hint': 'Permissão de nível de plataforma: alcança além de um domínio e sua árvore.',
}
