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
