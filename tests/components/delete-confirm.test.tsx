import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { DeleteConfirm } from '~/components/ui/dialog'
import { catalogues } from '~/i18n/catalogues'

const pt = catalogues['pt-BR']

/** A list row's delete button and the shared confirmation, as the asset, category, metaverse and extra-field lists use it. */
function List({ onDelete }: { onDelete: (id: string) => void }) {
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null)
  return (
    <>
      <button type="button" onClick={() => setRemoving({ id: 'a1', name: 'Cartaz da feira' })}>
        apagar
      </button>
      <DeleteConfirm
        item={removing}
        prefix="resources.asset"
        values={{ name: removing?.name ?? '' }}
        onConfirm={() => removing && onDelete(removing.id)}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

describe('DeleteConfirm', () => {
  it('names what it deletes, deletes it on yes, and closes', () => {
    const onDelete = vi.fn()
    render(<List onDelete={onDelete} />)
    expect(screen.queryByText(pt['resources.asset.delete_confirm'].replace('{{name}}', 'Cartaz da feira'))).toBeNull()
    fireEvent.click(screen.getByText('apagar'))
    expect(screen.getByRole('heading', { name: pt['resources.asset.delete'].replace('{{name}}', 'Cartaz da feira') })).toBeTruthy()
    expect(screen.getByText(pt['resources.asset.delete_confirm'].replace('{{name}}', 'Cartaz da feira'))).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: pt['resources.role.delete_yes'] }))
    expect(onDelete).toHaveBeenCalledExactlyOnceWith('a1')
    expect(screen.queryByRole('button', { name: pt['resources.role.delete_yes'] })).toBeNull()
  })

  it('deletes nothing when cancelled', () => {
    const onDelete = vi.fn()
    render(<List onDelete={onDelete} />)
    fireEvent.click(screen.getByText('apagar'))
    fireEvent.click(screen.getByRole('button', { name: pt['settings.cancel'] }))
    expect(onDelete).not.toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: pt['resources.role.delete_yes'] })).toBeNull()
  })

  it('with typeToConfirm, enables yes only once the code is typed into its labelled field, and passes it on', () => {
    const onDelete = vi.fn()
    function Realms() {
      const [removing, setRemoving] = useState<{ code: string; name: string } | null>(null)
      return (
        <>
          <button type="button" onClick={() => setRemoving({ code: 'demo-sul', name: 'Demo Sul' })}>
            apagar
          </button>
          <DeleteConfirm
            item={removing}
            prefix="resources.realm"
            values={{ name: removing?.name ?? '', code: removing?.code ?? '' }}
            typeToConfirm={removing?.code}
            onConfirm={(typed) => onDelete(typed)}
            onClose={() => setRemoving(null)}
          />
        </>
      )
    }
    render(<Realms />)
    fireEvent.click(screen.getByText('apagar'))
    const yes = () => screen.getByRole('button', { name: pt['resources.realm.delete_yes'] }) as HTMLButtonElement
    const field = screen.getByLabelText(pt['resources.realm.delete_type'].replace('{{code}}', 'demo-sul')) as HTMLInputElement
    expect(field.getAttribute('aria-describedby')).toBe('confirm-message')
    expect(yes().disabled).toBe(true)
    fireEvent.change(field, { target: { value: 'demo' } })
    expect(yes().disabled).toBe(true)
    fireEvent.submit(field.form!)
    expect(onDelete).not.toHaveBeenCalled()
    fireEvent.change(field, { target: { value: 'demo-sul' } })
    expect(yes().disabled).toBe(false)
    fireEvent.click(yes())
    expect(onDelete).toHaveBeenCalledExactlyOnceWith('demo-sul')
    // Opened again, the field starts empty.
    fireEvent.click(screen.getByText('apagar'))
    expect((screen.getByLabelText(pt['resources.realm.delete_type'].replace('{{code}}', 'demo-sul')) as HTMLInputElement).value).toBe('')
  })
})
