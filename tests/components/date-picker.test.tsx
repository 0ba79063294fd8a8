import { act, fireEvent, render, screen, within } from '@testing-library/react'
import i18next from 'i18next'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { DatePicker, firstDayOfWeek, monthGrid } from '~/components/form/date-picker'
import { catalogues } from '~/i18n/catalogues'

/** The calendar beside the kit's date fields: its keyboard contract, its names and first weekday per language. */

const pt = catalogues['pt-BR']

function renderField(value = '') {
  const typed: string[] = []
  render(
    <form>
      <label htmlFor="start">Início</label>
      <input id="start" name="start" type="text" defaultValue={value} onInput={(e) => typed.push(e.currentTarget.value)} />
      <DatePicker inputId="start" label="Início" />
    </form>,
  )
  const button = screen.getByRole('button', { name: pt['form.calendar.open'].replace('{{label}}', 'Início') })
  return { button, input: screen.getByLabelText('Início') as HTMLInputElement, typed }
}

const focusedDay = () => (document.activeElement as HTMLElement | null)?.getAttribute('data-day')
const key = async (k: string, shiftKey = false) => {
  await act(async () => {
    fireEvent.keyDown(document.activeElement!, { key: k, shiftKey })
  })
}
const open = async (button: HTMLElement) => {
  await act(async () => fireEvent.click(button))
  return screen.getByRole('dialog')
}

afterEach(async () => {
  await i18next.changeLanguage('pt-BR')
})

describe('the date field calendar', () => {
  it('renders nothing on the server: without JavaScript the typed field stays alone', () => {
    expect(renderToString(<DatePicker inputId="start" label="Início" />)).toBe('')
  })

  it('opens on the typed day and moves by day, week, week edges, month and year', async () => {
    const { button } = renderField('15/03/2026')
    const dialog = await open(button)
    expect(within(dialog).getByRole('grid')).toBeTruthy()
    expect(within(dialog).getByRole('heading', { level: 3 }).textContent).toBe('Março de 2026')
    expect(focusedDay()).toBe('2026-03-15')
    expect(document.activeElement?.getAttribute('aria-selected')).toBe('true')
    await key('ArrowRight')
    expect(focusedDay()).toBe('2026-03-16')
    await key('ArrowDown')
    expect(focusedDay()).toBe('2026-03-23')
    await key('ArrowLeft')
    expect(focusedDay()).toBe('2026-03-22')
    await key('ArrowUp')
    expect(focusedDay()).toBe('2026-03-15')
    // pt-BR weeks start on Sunday, and 15 March 2026 is one.
    await key('End')
    expect(focusedDay()).toBe('2026-03-21')
    await key('Home')
    expect(focusedDay()).toBe('2026-03-15')
    await key('PageDown')
    expect(focusedDay()).toBe('2026-04-15')
    expect(within(dialog).getByRole('heading', { level: 3 }).textContent).toBe('Abril de 2026')
    await key('PageUp')
    await key('PageUp')
    expect(focusedDay()).toBe('2026-02-15')
    await key('PageDown', true)
    expect(focusedDay()).toBe('2027-02-15')
    await key('PageUp', true)
    expect(focusedDay()).toBe('2026-02-15')
    // Across a month's end with the arrows.
    for (let i = 0; i < 14; i++) await key('ArrowRight')
    expect(focusedDay()).toBe('2026-03-01')
  })

  it('keeps the day inside a shorter month (31 January, next month: 28 February)', async () => {
    const { button } = renderField('31/01/2026')
    await open(button)
    await key('PageDown')
    expect(focusedDay()).toBe('2026-02-28')
  })

  it('Enter picks the day into the field as typed text, closes and returns focus to the button', async () => {
    const { button, input, typed } = renderField('15/03/2026')
    await open(button)
    await key('ArrowDown')
    await key('Enter')
    expect(input.value).toBe('22/03/2026')
    expect(typed).toEqual(['22/03/2026'])
    expect(screen.queryByRole('grid')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('Escape closes without changing the field and returns focus to the button', async () => {
    const { button, input, typed } = renderField('15/03/2026')
    await open(button)
    await key('ArrowRight')
    await key('Escape')
    expect(input.value).toBe('15/03/2026')
    expect(typed).toEqual([])
    expect(screen.queryByRole('grid')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('opens on today when the field is empty or unreadable, and a click picks a day', async () => {
    const { button, input } = renderField('31/02/2026')
    await open(button)
    const now = new Date()
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
    expect(focusedDay()).toBe(today)
    expect(document.activeElement?.getAttribute('aria-current')).toBe('date')
    const cell = document.querySelector<HTMLElement>(`[data-day="${today.slice(0, 8)}01"]`)!
    await act(async () => fireEvent.click(cell))
    expect(input.value).toBe(`01/${today.slice(5, 7)}/${today.slice(0, 4)}`)
  })

  it('names months and weekdays in the page language and starts the week on its first day', async () => {
    const { button } = renderField('15/03/2026')
    let dialog = await open(button)
    const headers = () => within(screen.getByRole('grid')).getAllByRole('columnheader')
    expect(headers()[0].textContent).toMatch(/^dom/)
    expect(headers()[0].getAttribute('abbr')).toBe('domingo')
    expect(within(dialog).getByRole('gridcell', { name: /15 de março de 2026/ })).toBeTruthy()
    await key('Escape')

    await act(async () => {
      await i18next.changeLanguage('es-ES')
    })
    dialog = await open(screen.getByRole('button', { name: catalogues['es-ES']['form.calendar.open'].replace('{{label}}', 'Início') }))
    expect(within(dialog).getByRole('heading', { level: 3 }).textContent).toBe('Marzo de 2026')
    expect(headers()[0].getAttribute('abbr')).toBe('lunes')
    // es-ES weeks start on Monday: Home from Sunday 15 March goes back to Monday 9.
    await key('Home')
    expect(focusedDay()).toBe('2026-03-09')
    await key('Escape')

    await act(async () => {
      await i18next.changeLanguage('en-US')
    })
    // The field's text is read in the page language: month first in en-US.
    ;(screen.getByLabelText('Início') as HTMLInputElement).value = '03/15/2026'
    dialog = await open(screen.getByRole('button', { name: catalogues['en-US']['form.calendar.open'].replace('{{label}}', 'Início') }))
    expect(within(dialog).getByRole('heading', { level: 3 }).textContent).toBe('March 2026')
    expect(headers()[0].getAttribute('abbr')).toBe('Sunday')
    await key('Enter')
    expect((screen.getByLabelText('Início') as HTMLInputElement).value).toBe('03/15/2026')
  })

  it('lays out a month from the locale first weekday', () => {
    expect(firstDayOfWeek('pt-BR')).toBe(0)
    expect(firstDayOfWeek('en-US')).toBe(0)
    expect(firstDayOfWeek('es-ES')).toBe(1)
    // March 2026 starts on a Sunday: no blank before the 1st when weeks start on Sunday, six when on Monday.
    expect(monthGrid(2026, 2, 0)[0][0]).toEqual({ y: 2026, m: 2, d: 1 })
    expect(
      monthGrid(2026, 2, 1)[0]
        .slice(0, 7)
        .map((c) => c?.d ?? null),
    ).toEqual([null, null, null, null, null, null, 1])
    expect(monthGrid(2026, 1, 0).flat().filter(Boolean)).toHaveLength(28)
  })
})
