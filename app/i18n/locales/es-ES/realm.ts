export default {
  'resources.realm.name': 'Dominios',
  'resources.realm.fields.code': 'Código',
  'resources.realm.fields.name': 'Nombre',
  'resources.realm.fields.canonical_name': 'Nombre canónico',
  'resources.realm.fields.parent_code': 'Dominio padre',
}
