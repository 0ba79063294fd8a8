/** A session's lifecycle and editing (issue 15): publish, unpublish, rerecord, session/edit, the storage quota. */
export default {
  'pages.session.edit': 'Edit session',
  'session.edit.saved': 'Session “{{name}}” saved.',
  'session.life.actions': 'Actions',
  'session.life.edit': 'Edit',
  'session.life.publish': 'Publish',
  'session.life.unpublish': 'Unpublish',
  'session.life.rerecord': 'Record again',
  'session.life.rerecord_title': 'Record this session again',
  'session.life.rerecord_warning':
    'The current video and everything derived from it are deleted, and the session waits to be recorded again. This cannot be undone.',
  'session.life.justification': 'Justification',
  'session.life.justification_hint': 'Required; kept in the audit log. At most {{max}} characters.',
  'session.life.rerecord_confirm': 'Delete the video and record again',
  'session.life.done_publish': 'The session was published.',
  'session.life.done_unpublish': 'The session was unpublished.',
  'session.life.done_rerecord': 'The video was deleted; the session waits to be recorded again.',
  'errors.storage_full': 'No space to store the videos',
  'errors.invalid_transition': 'The session’s status does not allow this',
  'errors.session_no_video': 'The session has no video to publish',
  'resources.realm.fields.csm_storage_quota_mb': 'Recording storage quota (MB)',
  'resources.realm.hints.csm_storage_quota_mb': '0 = no quota. New recordings are refused once the stored ones would pass it.',
}
