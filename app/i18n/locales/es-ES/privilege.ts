/** The privilege ceilings (issue 11): what a refused role or user write says, and the screens that show them. */
export default {
  'privilege.grant_ceiling': 'No puede conceder ni retirar {{value}}: no tiene ese permiso.',
  'privilege.own_role': 'No puede cambiar el perfil {{value}}: usted mismo lo tiene. Pida a otro administrador.',
  'privilege.user_ceiling': 'Este usuario tiene permisos que usted no tiene ({{value}}); no puede cambiarlo.',
  'privilege.root_only': 'Solo quien tiene el perfil root puede cambiar esta cuenta.',
  'errors.grant_ceiling': 'No puede conceder ni retirar permisos que no tiene.',
  'errors.own_role': 'No puede cambiar un perfil que usted mismo tiene.',
  'errors.user_ceiling': 'Este usuario tiene permisos que usted no tiene.',
  'errors.root_only': 'Solo quien tiene el perfil root puede cambiar esta cuenta.',
  'resources.role.grantable_hint': 'Solo se muestran los permisos que usted tiene: son los únicos que puede conceder o retirar.',
  'resources.role.outside.title': 'También concedidos, fuera de su alcance ({{count}})',
  'resources.role.outside.hint': 'Usted no tiene estos permisos, así que no puede retirarlos; al guardar quedan como están.',
  'resources.role.own': 'Usted tiene este perfil, así que no puede cambiarlo. Pida a otro administrador.',
  'resources.role.save_failed': 'El perfil no se guardó',
  'resources.platform.badge': 'plataforma',
  'resources.platform.hint': 'Permiso de nivel de plataforma: alcanza más allá de un dominio y su árbol.',
}
