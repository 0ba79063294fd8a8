import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import { RoleEditor, type RoleEditorProps } from '~/routes/_console+/realm+/__role-editor'

const pt = catalogues['pt-BR']

/** The editor on its route, whose action answers what the API would (a refusal by default). */
function renderEditor(
  props: RoleEditorProps,
  answer: unknown = { errors: [{ field: 'tms_model_delete', cause: 'grant_ceiling', value: 'tms_model_delete', message: 'privilege.grant_ceiling' }] },
) {
  const posted: string[][] = []
  const Stub = createRemixStub([
    {
      path: '/realm/role/demo/edit/r1',
      Component: () => (
        <ToastProvider>
          <RoleEditor {...props} />
        </ToastProvider>
      ),
      action: async ({ request }) => {
        posted.push((await request.formData()).getAll('permission').map(String))
        return answer
      },
    },
  ])
  render(<Stub initialEntries={['/realm/role/demo/edit/r1']} />)
  return posted
}
const boxes = () =>
  screen
    .queryAllByRole('checkbox')
    .map((b) => (b as HTMLInputElement).value)
    .filter((v) => v && v !== 'on')

describe('RoleEditor', () => {
  it('offers only the permissions the editor holds, and lists the role’s others read-only', () => {
    renderEditor({
      mode: 'edit',
      role: 'r1',
      description: '',
      granted: ['tms_model_list', 'mas_realm_list_all', 'tms_model_delete'],
      grantable: ['dashboard_dashboard_access', 'tms_model_list'],
    })
    expect(boxes().sort()).toEqual(['dashboard_dashboard_access', 'tms_model_list'])
    expect(screen.getByText(pt['resources.role.grantable_hint'])).toBeTruthy()
    const outside = screen.getByRole('heading', { name: pt['resources.role.outside.title'].replace('{{count}}', '2') }).closest('.card') as HTMLElement
    expect(within(outside).getByText('mas_realm_list_all')).toBeTruthy()
    expect(within(outside).getByText('tms_model_delete')).toBeTruthy()
    expect(within(outside).queryAllByRole('checkbox')).toHaveLength(0)
  })

  it('shows nothing beyond the editor on a new role', () => {
    renderEditor({ mode: 'create', granted: [], grantable: ['dashboard_dashboard_access', 'mas_user_list'] })
    expect(boxes().sort()).toEqual(['dashboard_dashboard_access', 'mas_user_list'])
    expect(screen.queryByText(pt['resources.role.outside.hint'])).toBeNull()
    // Each permission reads as its translated label, the key beside it.
    expect(screen.getByText('Usuários: listar')).toBeTruthy()
    expect(screen.getByText(pt['permissions.label.dashboard_dashboard_access'])).toBeTruthy()
  })

  it('marks platform-level permissions to those who hold them', () => {
    renderEditor({ mode: 'create', granted: [], grantable: ['mas_realm_list_all', 'mas_user_list'] })
    const row = screen.getByText('mas_realm_list_all').closest('label') as HTMLElement
    expect(within(row).getByText(pt['resources.platform.badge'])).toBeTruthy()
    expect(within(screen.getByText('mas_user_list').closest('label') as HTMLElement).queryByText(pt['resources.platform.badge'])).toBeNull()
  })

  it('shows a role the editor holds without a way to save it', () => {
    renderEditor({ mode: 'edit', role: 'r1', description: '', granted: ['tms_model_list'], grantable: ['tms_model_list'], own: true })
    expect(screen.getByText(pt['resources.role.own'])).toBeTruthy()
    expect(screen.queryByRole('button', { name: pt['resources.role.review'] })).toBeNull()
    expect((screen.getByRole('checkbox', { name: /tms_model_list/ }) as HTMLInputElement).disabled).toBe(true)
  })

  it('shows the API’s refusal of a save in a toast', async () => {
    const posted = renderEditor({
      mode: 'edit',
      role: 'r1',
      description: '',
      granted: ['tms_model_list'],
      grantable: ['tms_model_list', 'dashboard_dashboard_access'],
    })
    fireEvent.click(screen.getByRole('checkbox', { name: /dashboard_dashboard_access/ }))
    fireEvent.click(screen.getByRole('button', { name: pt['resources.role.review'] }))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: pt['resources.role.diff.confirm'] }))
    })
    const toast = await screen.findByText(pt['resources.role.save_failed'])
    const item = toast.closest('.toast') as HTMLElement
    expect(item.getAttribute('role')).toBe('alert')
    expect(item.textContent).toContain(pt['privilege.grant_ceiling'].replace('{{value}}', 'tms_model_delete'))
    expect(posted[0].sort()).toEqual(['dashboard_dashboard_access', 'tms_model_list'])
  })

  it('reviews a new role against nothing: its preselected permission counts as granted, as the page says', async () => {
    renderEditor({ mode: 'create', granted: ['dashboard_dashboard_access'], grantable: ['dashboard_dashboard_access', 'mas_user_list'] })
    expect(screen.getByRole('heading', { name: pt['resources.role.permissions'].replace('{{count}}', '1') })).toBeTruthy()
    fireEvent.change(screen.getByLabelText(pt['resources.role.fields.role']), { target: { value: 'monitor' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['resources.role.review'] })))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: pt['resources.role.diff.added'].replace('{{count}}', '1') })).toBeTruthy()
  })

  it('toasts a field error of the answer and takes the user to the field', async () => {
    renderEditor({ mode: 'create', granted: [], grantable: ['dashboard_dashboard_access'] }, { fieldErrors: { role: 'validation.nick' } })
    fireEvent.change(screen.getByLabelText(pt['resources.role.fields.role']), { target: { value: 'Nome Ruim' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['resources.role.review'] })))
    const dialog = await screen.findByRole('dialog')
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: pt['resources.role.diff.confirm'] })))
    const toast = await screen.findByText(pt['validation.nick'], { selector: '.toast *' })
    expect(toast).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText(pt['resources.role.fields.role']))
  })
})
