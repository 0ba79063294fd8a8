/** Realm resource. */
export default {
  'resources.realm.name': 'Domínios',
  'resources.realm.fields.code': 'Código',
  'resources.realm.fields.name': 'Nome',
  'resources.realm.fields.canonical_name': 'Nome canônico',
  'resources.realm.fields.parent_code': 'Domínio pai',
  'resources.realm.fields.created_at': 'Criado em',
  'resources.realm.search.codes': 'Códigos (vários)',
  'resources.realm.export_selected': 'Exportar selecionados',
}
