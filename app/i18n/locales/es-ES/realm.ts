export default {
  'resources.realm.name': 'Dominios',
  'resources.realm.fields.code': 'Código',
  'resources.realm.fields.name': 'Nombre',
  'resources.realm.fields.canonical_name': 'Nombre canónico',
  'resources.realm.fields.parent_code': 'Dominio padre',
  'resources.realm.fields.created_at': 'Creado el',
  'resources.realm.search.codes': 'Códigos (varios)',
  'resources.realm.export_selected': 'Exportar seleccionados',
}
