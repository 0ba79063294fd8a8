/** A session's lifecycle and editing (issue 15): publish, unpublish, rerecord, session/edit, the storage quota. */
export default {
  'pages.session.edit': 'Editar sessão',
  'session.edit.saved': 'Sessão “{{name}}” salva.',
  'session.life.actions': 'Publicação',
  'session.life.edit': 'Editar',
  'session.life.publish': 'Publicar',
  'session.life.unpublish': 'Despublicar',
  'session.life.rerecord': 'Regravar',
  'session.life.rerecord_title': 'Regravar esta sessão',
  'session.life.rerecord_warning':
    'O vídeo atual e tudo o que deriva dele são excluídos, e a sessão aguarda uma nova gravação. Isso não pode ser desfeito.',
  'session.life.justification': 'Justificativa',
  'session.life.justification_hint': 'Obrigatória; fica no registro de auditoria. No máximo {{max}} caracteres.',
  'session.life.rerecord_confirm': 'Excluir o vídeo e regravar',
  'session.life.done_publish': 'A sessão foi publicada.',
  'session.life.done_unpublish': 'A sessão foi despublicada.',
  'session.life.done_rerecord': 'O vídeo foi excluído; a sessão aguarda uma nova gravação.',
  'errors.storage_full': 'Sem espaço para armazenar os vídeos',
  'errors.invalid_transition': 'A situação da sessão não permite isso',
  'errors.session_no_video': 'A sessão não tem vídeo para publicar',
  'resources.realm.fields.csm_storage_quota_mb': 'Cota de armazenamento das gravações (MB)',
  'resources.realm.hints.csm_storage_quota_mb': '0 = sem cota. Novas gravações são recusadas quando as armazenadas passariam dela.',
}
