/** Realm-change dialog (seed 000 §2.1, §4). */
export default {
  'realm.switch.open': 'Switch realm',
  'realm.switch.title': 'Switch realm',
  'realm.switch.close': 'Close',
  'realm.switch.search': 'Search realms',
  'realm.switch.list': 'Available realms',
  'realm.switch.loading': 'Loading realms…',
  'realm.switch.empty': 'No realm found.',
  'realm.switch.current': 'current',
  'realm.switch.progress': 'Switching to {{name}}…',
  'realm.switch.forbidden': 'You have no access to this realm.',
  'realm.switch.failed': 'The realm could not be switched.',
  'realm.switch.list_failed': 'The realms could not be loaded.',
  'realm.switch.no_host': 'This realm has no address of its own; switch from the console’s general address.',
  'realm.switch.handover_failed': 'This realm-switch link is no longer valid. Please sign in again.',
}
