/** Realm-change dialog (seed 000 §2.1, §4). */
export default {
  'realm.switch.open': 'Trocar de domínio',
  'realm.switch.title': 'Trocar de domínio',
  'realm.switch.close': 'Fechar',
  'realm.switch.search': 'Buscar domínio',
  'realm.switch.list': 'Domínios disponíveis',
  'realm.switch.loading': 'Carregando os domínios…',
  'realm.switch.empty': 'Nenhum domínio encontrado.',
  'realm.switch.current': 'atual',
  'realm.switch.progress': 'Trocando para {{name}}…',
  'realm.switch.forbidden': 'Você não tem acesso a este domínio.',
  'realm.switch.failed': 'Não foi possível trocar de domínio.',
  'realm.switch.list_failed': 'Não foi possível carregar os domínios.',
  'realm.switch.no_host': 'Este domínio não tem endereço próprio; troque a partir do endereço geral do painel.',
  'realm.switch.handover_failed': 'Este link de troca de domínio não é mais válido. Entre novamente.',
}
