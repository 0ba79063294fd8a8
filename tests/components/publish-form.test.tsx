import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '~/components/ui/toast'
import { PublishForm, type PublishOptions } from '~/components/tms/publish-form'
import { catalogues } from '~/i18n/catalogues'
import { readDateTime } from '~/lib/dates'

const pt = catalogues['pt-BR']

function options(model: Partial<PublishOptions['model']> = {}): PublishOptions {
  return {
    model: { id: 'm1', title: 'Frações', token: false, min_execution_time: 0, categories: [], question_types: ['single'], ...model },
    rooms: [{ id: 'r1', name: '9º A', members: [{ nick: 'ana', name: 'Ana' }] }],
    groups: [],
    categories: [
      { id: 'c-subject', name: 'Disciplina', parent_id: null, required: true, multi_selection: false, selectable: false, enabled: true },
      { id: 'c-math', name: 'Matemática', parent_id: 'c-subject', required: false, multi_selection: false, selectable: true, enabled: true },
    ],
    limits: { defaultDeadlineDays: 3, maxScheduleDays: 365, expireOffsetDays: 0 },
  }
}

let posted: Record<string, unknown> | null = null
function renderForm(opts = options()) {
  posted = null
  const Stub = createRemixStub([
    {
      path: '/tms/task/edit/m1',
      Component: () => (
        <ToastProvider>
          <PublishForm options={opts} timeZone="America/Sao_Paulo" />
        </ToastProvider>
      ),
      action: async ({ request }) => {
        posted = JSON.parse(String((await request.formData()).get('publication'))) as Record<string, unknown>
        return { errors: [] }
      },
    },
  ])
  render(<Stub initialEntries={['/tms/task/edit/m1']} />)
}

/** A date field's value as the page shows it (pt-BR `dd/mm/aaaa hh:mm`), read back to `YYYY-MM-DDTHH:mm`. */
const typed = (field: 'publish_at' | 'expire_at') => {
  const shown = (screen.getByLabelText(pt[`resources.tms_task.fields.${field}`]) as HTMLInputElement).value
  expect(shown).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)
  return readDateTime(shown, 'pt-BR')!
}

const submit = () => act(async () => fireEvent.click(screen.getByRole('button', { name: pt['tms.publish.submit'] })))

describe('the publication form', () => {
  it('starts with the default deadline (3 days) and publication to whole rooms', () => {
    renderForm()
    const publish = typed('publish_at')
    const expire = typed('expire_at')
    expect(Date.parse(`${expire}:00Z`) - Date.parse(`${publish}:00Z`)).toBe(3 * 86_400_000)
    expect((screen.getByLabelText(pt['tms.publication.all']) as HTMLInputElement).checked).toBe(true)
  })

  it('adds the realm’s task expire offset to the default deadline', () => {
    const opts = options()
    renderForm({ ...opts, limits: { ...opts.limits, expireOffsetDays: 2 } })
    const publish = typed('publish_at')
    const expire = typed('expire_at')
    expect(Date.parse(`${expire}:00Z`) - Date.parse(`${publish}:00Z`)).toBe(5 * 86_400_000)
  })

  it('shows the publication rules live and sends nothing while one fails', async () => {
    renderForm()
    await submit()
    expect(posted).toBeNull()
    expect(screen.getByText(pt['validation.tms.target_required'])).toBeTruthy()
    // With a target, the publication rules of the model come next: its required category.
    fireEvent.click(screen.getByLabelText(/9º A/))
    await submit()
    expect(posted).toBeNull()
    expect(screen.queryByText(pt['validation.tms.target_required'])).toBeNull()
    expect(screen.getByText(pt['validation.tms.required_category'])).toBeTruthy()

    const publish = screen.getByLabelText(pt['resources.tms_task.fields.publish_at']) as HTMLInputElement
    fireEvent.change(screen.getByLabelText(pt['resources.tms_task.fields.expire_at']), { target: { value: publish.value } })
    expect(screen.getByText(pt['validation.tms.expire_before_publish'])).toBeTruthy()
  })

  it('publishes to the chosen room with the required category', async () => {
    renderForm()
    fireEvent.click(screen.getByLabelText(/9º A/))
    fireEvent.click(screen.getByLabelText('Matemática'))
    await submit()
    expect(posted).toMatchObject({ model_id: 'm1', publication_type: 'all', rooms: ['r1'], categories: ['c-math'], scheduling_enabled: true })
  })

  it('reads a date typed in the page language, and names one it cannot read', async () => {
    renderForm()
    fireEvent.click(screen.getByLabelText(/9º A/))
    fireEvent.click(screen.getByLabelText('Matemática'))
    const expire = screen.getByLabelText(pt['resources.tms_task.fields.expire_at'])
    fireEvent.change(expire, { target: { value: '31/12/2030 18:30' } })
    expect(typed('expire_at')).toBe('2030-12-31T18:30')
    // 31 February cannot be read: said under the field, not as "expires before it is published", and nothing is sent.
    fireEvent.change(expire, { target: { value: '31/02/2030 18:30' } })
    await submit()
    expect(posted).toBeNull()
    expect(screen.getByText(pt['validation.date'])).toBeTruthy()
    expect(screen.queryByText(pt['validation.tms.expire_before_publish'])).toBeNull()
  })

  it('does not offer member publication for a token-enabled model', () => {
    renderForm(options({ token: true }))
    expect((screen.getByLabelText(pt['tms.publication.members']) as HTMLInputElement).disabled).toBe(true)
    expect(screen.getByText(pt['validation.tms.members_token'])).toBeTruthy()
  })

  it('pauses the task when scheduling is disabled', () => {
    renderForm()
    fireEvent.click(screen.getByLabelText(pt['resources.tms_task.fields.scheduling_enabled']))
    expect(within(document.body).getByText(pt['tms.publish.paused_hint'])).toBeTruthy()
  })

  it('asks for the realm’s extra fields of tasks, requires the required one, and sends them', async () => {
    renderForm({
      ...options(),
      extra: [
        { key: 'bncc', label: 'Código BNCC', required: true },
        { key: 'obs', label: 'Observação', required: false },
      ],
    })
    fireEvent.click(screen.getByLabelText(/9º A/))
    fireEvent.click(screen.getByLabelText('Matemática'))
    await submit()
    expect(posted).toBeNull()
    const code = screen.getByLabelText(/Código BNCC/)
    expect(code.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(code, { target: { value: 'EF06MA07' } })
    await submit()
    expect(posted).toMatchObject({ rooms: ['r1'], extra: { bncc: 'EF06MA07', obs: '' } })
  })
})
