/** A session's lifecycle and editing (issue 15): publish, unpublish, rerecord, session/edit, the storage quota. */
export default {
  'pages.session.edit': 'Editar sesión',
  'session.edit.saved': 'Sesión «{{name}}» guardada.',
  'session.life.actions': 'Publicación',
  'session.life.edit': 'Editar',
  'session.life.publish': 'Publicar',
  'session.life.unpublish': 'Despublicar',
  'session.life.rerecord': 'Volver a grabar',
  'session.life.rerecord_title': 'Volver a grabar esta sesión',
  'session.life.rerecord_warning':
    'El vídeo actual y todo lo que deriva de él se eliminan, y la sesión espera una nueva grabación. Esto no se puede deshacer.',
  'session.life.justification': 'Justificación',
  'session.life.justification_hint': 'Obligatoria; queda en el registro de auditoría. Como máximo {{max}} caracteres.',
  'session.life.rerecord_confirm': 'Eliminar el vídeo y volver a grabar',
  'session.life.done_publish': 'La sesión se publicó.',
  'session.life.done_unpublish': 'La sesión se despublicó.',
  'session.life.done_rerecord': 'El vídeo se eliminó; la sesión espera una nueva grabación.',
  'errors.storage_full': 'No hay espacio para almacenar los vídeos',
  'errors.invalid_transition': 'El estado de la sesión no lo permite',
  'errors.session_no_video': 'La sesión no tiene vídeo para publicar',
  'resources.realm.fields.csm_storage_quota_mb': 'Cuota de almacenamiento de las grabaciones (MB)',
  'resources.realm.hints.csm_storage_quota_mb': '0 = sin cuota. Las nuevas grabaciones se rechazan cuando las almacenadas la superarían.',
}
