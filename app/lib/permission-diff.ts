/** What a role edit changes: permissions granted and revoked, sorted. */
export function permissionDiff(before: Iterable<string>, after: Iterable<string>): { added: string[]; removed: string[] } {
  const b = new Set(before)
  const a = new Set(after)
  return { added: [...a].filter((p) => !b.has(p)).sort(), removed: [...b].filter((p) => !a.has(p)).sort() }
}

/** The action word of a `module_resource_action` name (its last segment). */
export function permissionAction(name: string): string {
  return name.slice(name.lastIndexOf('_') + 1)
}

/** A `module_resource` name: the permission without its action word. */
export function permissionResource(name: string): string {
  return name.slice(0, name.lastIndexOf('_'))
}

/**
 * The translated label of a permission (e.g. `mas_realm_list` → "Domínios: listar"): its whole label
 * (`permissions.label.<name>`) when it has one, else its resource (`permissions.resource.<module_resource>`) with its
 * action word (`permissions.action.<action>`); the name itself only when neither is translated.
 */
export function permissionLabel(t: (key: string, options?: Record<string, unknown>) => string, name: string): string {
  const whole = t(`permissions.label.${name}`, { defaultValue: '' })
  if (whole) return whole
  const resource = t(`permissions.resource.${permissionResource(name)}`, { defaultValue: '' })
  const action = t(`permissions.action.${permissionAction(name)}`, { defaultValue: '' })
  return resource && action ? t('permissions.label', { resource, action }) : name
}
