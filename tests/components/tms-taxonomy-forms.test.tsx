import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen } from '@testing-library/react'
import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import EntityForm from '~/entity-routes/form'

/** The category, assessed-skill and genre screens (the generic entity form, read from their declarations) warn before leaving with unsaved changes. */

const pt = catalogues['pt-BR']
const timeZone = 'America/Sao_Paulo'
const stamp = { realm: 'demo', created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', updated_by: 'root' }

const SCREENS: { name: string; path: string; list: string; resource: string; Component: ComponentType; data: Record<string, unknown> }[] = [
  {
    name: 'category create',
    path: '/tms/category/create',
    list: '/tms/category',
    resource: 'tms_category',
    Component: EntityForm,
    data: { entity: 'tms_category', title: 'pages.tms.category.create', row: null, options: { parent_id: [] }, timeZone },
  },
  {
    name: 'category edit',
    path: '/tms/category/edit/c1',
    list: '/tms/category',
    resource: 'tms_category',
    Component: EntityForm,
    data: {
      entity: 'tms_category',
      title: 'pages.tms.category.edit',
      row: {
        id: 'c1',
        name: 'Matemática',
        parent_id: null,
        selectable: true,
        enabled: true,
        required: false,
        multi_selection: true,
        embed: false,
        show_in_navigation: false,
        show_in_filter: true,
        show_in_list: true,
        ...stamp,
      },
      options: { parent_id: [] },
      timeZone,
    },
  },
  {
    name: 'assessed skill create',
    path: '/tms/assessed_skills/create',
    list: '/tms/assessed_skills',
    resource: 'tms_assessed_skill',
    Component: EntityForm,
    data: { entity: 'tms_assessed_skill', title: 'pages.tms.assessed_skills.create', row: null, options: { group_id: [] }, timeZone },
  },
  {
    name: 'assessed skill edit',
    path: '/tms/assessed_skills/edit/s1',
    list: '/tms/assessed_skills',
    resource: 'tms_assessed_skill',
    Component: EntityForm,
    data: {
      entity: 'tms_assessed_skill',
      title: 'pages.tms.assessed_skills.edit',
      row: { id: 's1', name: 'Coesão', type: 'skill', weight: 1, group_id: null, description: '', ...stamp },
      options: { group_id: [] },
      timeZone,
    },
  },
  {
    name: 'genre create',
    path: '/tms/genre/create',
    list: '/tms/genre',
    resource: 'tms_genre',
    Component: EntityForm,
    data: { entity: 'tms_genre', title: 'pages.tms.genre.create', row: null, options: {}, timeZone },
  },
  {
    name: 'genre edit',
    path: '/tms/genre/edit/g1',
    list: '/tms/genre',
    resource: 'tms_genre',
    Component: EntityForm,
    data: {
      entity: 'tms_genre',
      title: 'pages.tms.genre.edit',
      row: { id: 'g1', name: 'Crônica', min_words: 100, max_words: 400, description: '', ...stamp },
      options: {},
      timeZone,
    },
  },
]

function renderScreen(s: (typeof SCREENS)[number]) {
  const Stub = createRemixStub([
    { path: s.path, Component: s.Component, loader: () => s.data },
    { path: s.list, Component: () => <h1>lista</h1> },
  ])
  render(
    <ToastProvider>
      <Stub initialEntries={[s.path]} />
    </ToastProvider>,
  )
}

const backLink = () => screen.getByRole('link', { name: pt['tms.form.back'] })

describe('unsaved-changes protection on the category, assessed-skill and genre forms', () => {
  for (const s of SCREENS) {
    it(`${s.name}: asks before leaving with a changed field, stays or leaves as chosen`, async () => {
      renderScreen(s)
      const label = new RegExp(pt[`resources.${s.resource}.fields.name`])
      const name = (await screen.findByLabelText(label)) as HTMLInputElement
      fireEvent.input(name, { target: { value: `${name.value} alterado` } })
      await act(async () => fireEvent.click(backLink()))
      const dialog = await screen.findByRole('dialog', { name: pt['unsaved.title'] })
      expect(dialog).toBeTruthy()
      await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['unsaved.stay'] })))
      expect(screen.queryByRole('heading', { name: 'lista' })).toBeNull()
      expect((screen.getByLabelText(label) as HTMLInputElement).value).toContain('alterado')

      await act(async () => fireEvent.click(backLink()))
      await act(async () => fireEvent.click(await screen.findByRole('button', { name: pt['unsaved.leave'] })))
      expect(await screen.findByRole('heading', { name: 'lista' })).toBeTruthy()
    })
  }

  it('leaves an untouched form without asking', async () => {
    renderScreen(SCREENS[4])
    await screen.findByRole('heading', { name: pt['pages.tms.genre.create'] })
    await act(async () => fireEvent.click(backLink()))
    expect(await screen.findByRole('heading', { name: 'lista' })).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
