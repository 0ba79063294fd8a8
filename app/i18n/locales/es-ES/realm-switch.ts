/** Realm-change dialog (seed 000 §2.1, §4). */
export default {
  'realm.switch.open': 'Cambiar de dominio',
  'realm.switch.title': 'Cambiar de dominio',
  'realm.switch.close': 'Cerrar',
  'realm.switch.search': 'Buscar dominio',
  'realm.switch.list': 'Dominios disponibles',
  'realm.switch.loading': 'Cargando los dominios…',
  'realm.switch.empty': 'No se encontró ningún dominio.',
  'realm.switch.current': 'actual',
  'realm.switch.progress': 'Cambiando a {{name}}…',
  'realm.switch.forbidden': 'No tienes acceso a este dominio.',
  'realm.switch.failed': 'No se pudo cambiar de dominio.',
  'realm.switch.list_failed': 'No se pudieron cargar los dominios.',
  'realm.switch.no_host': 'Este dominio no tiene dirección propia; cambia desde la dirección general del panel.',
  'realm.switch.handover_failed': 'Este enlace de cambio de dominio ya no es válido. Vuelve a entrar.',
}
