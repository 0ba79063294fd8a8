import { realmApi } from './browser'

/**
 * A staff user of the demo realm made for one browser file: a role granting the persona screens (personas, dialogs,
 * assistants) and the dashboard, and a user holding it, made through the realm API as demo's root. Files never
 * share it, so no other file's change (a password, a role) reaches them.
 */
export const PERSONA_PERMISSIONS = [
  'dashboard_dashboard_access',
  ...['persona_persona', 'persona_dialog', 'persona_assistant'].flatMap((r) => ['list', 'get', 'create', 'edit', 'delete'].map((a) => `${r}_${a}`)),
]

export async function personaStaff(tag: string, extra: string[] = []): Promise<{ nick: string; password: string }> {
  const root = await realmApi('demo', 'root')
  const role = `persona-e2e-${tag}`
  await root('POST', 'mas/permission', {
    role,
    description: 'Persona editor (browser test)',
    ...Object.fromEntries([...PERSONA_PERMISSIONS, ...extra].map((p) => [p, true])),
  })
  const nick = `editora${tag}`
  const password = `Senha-${tag}-42`
  await root('POST', 'mas/user', { nick, name: `Editora ${tag}`, password, roles: [role] })
  return { nick, password }
}
