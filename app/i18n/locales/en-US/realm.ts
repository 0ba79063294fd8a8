export default {
  'resources.realm.name': 'Realms',
  'resources.realm.fields.code': 'Code',
  'resources.realm.fields.name': 'Name',
  'resources.realm.fields.canonical_name': 'Canonical name',
  'resources.realm.fields.parent_code': 'Parent realm',
  'resources.realm.fields.created_at': 'Created on',
  'resources.realm.search.codes': 'Codes (several)',
  'resources.realm.export_selected': 'Export selected',
}
