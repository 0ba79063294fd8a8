import { createRemixStub } from '@remix-run/testing'
import { render, screen, within } from '@testing-library/react'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { ClockProvider } from '~/components/ui/clock'
import { EntityTable } from '~/components/ui/entity-table'
import { catalogues } from '~/i18n/catalogues'
import { dateTimeFormat, formatTime, money, numberFormat, zoneName } from '~/lib/format'
import { calendarDay } from '~/lib/list-format'
import { toCsv } from '~/lib/table'
import ledgerContentList from '~/lists/ledger-content'
import type { LedgerContent } from '#shared/schemas/ledger-entity'

const SP = { locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }
const at = '2026-11-23T08:29:00.000Z'

describe('one time formatter', () => {
  it('shows an instant in the realm zone and the page language', () => {
    expect(formatTime(at, SP)).toBe('23/11/2026, 05:29')
    expect(formatTime(at, { locale: 'en-US', timeZone: 'America/Sao_Paulo' })).toBe('11/23/2026, 05:29')
    expect(formatTime(at, { locale: 'pt-BR', timeZone: 'Europe/Lisbon' })).toBe('23/11/2026, 08:29')
    expect(formatTime(at, SP, 'second')).toBe('23/11/2026, 05:29:00')
    expect(formatTime(at, SP, 'day')).toBe('23/11/2026')
    expect(formatTime('', SP)).toBe('')
  })

  it('shows a calendar day (no instant) in the page language, the same day in every zone; CSV keeps it as stored', () => {
    // A day like a session's reference date: 10 March in São Paulo and in Tokyo alike, never the 9th.
    expect(calendarDay('2026-03-10', {}, undefined, SP)).toBe('10/03/2026')
    expect(calendarDay('2026-03-10', {}, undefined, { locale: 'en-US', timeZone: 'Asia/Tokyo' })).toBe('03/10/2026')
    expect(calendarDay('2026-03-10', {}, undefined, { locale: 'es-ES', timeZone: 'Pacific/Honolulu' })).toBe('10/03/2026')
    expect(calendarDay('2026-03-10')).toBe('2026-03-10')
    expect(calendarDay('2026-03-10T10:00:00Z', {}, undefined, SP)).toBe('')
    expect(calendarDay(null, {}, undefined, SP)).toBe('')
  })

  it('names the zone for people, with its identifier', () => {
    expect(zoneName(SP)).toMatch(/Brasília \(America\/Sao_Paulo\)$/)
    expect(zoneName({ locale: 'en-US', timeZone: 'America/Sao_Paulo' })).toMatch(/Brasilia.*\(America\/Sao_Paulo\)$/)
  })

  it('formats time columns of a table with the clock and says the zone once; CSV keeps ISO 8601 UTC', async () => {
    const row = { key: 'lesson.summary', name: 'Resumo', points: 5, is_system: true, updated_at: at, updated_by: 'root@demo' } as unknown as LedgerContent
    const Stub = createRemixStub([
      {
        path: '/ledger/content',
        Component: () => (
          <ClockProvider clock={SP}>
            <EntityTable
              spec={ledgerContentList}
              page={{ items: [row], total: 1, limit: 25, offset: 0 }}
              query={{ limit: 25, offset: 0, like: '', order: '', after: '', before: '', last: false }}
              title="Preços"
            />
          </ClockProvider>
        ),
      },
    ])
    render(<Stub initialEntries={['/ledger/content']} />)
    const table = await screen.findByRole('table')
    expect(within(table).getByText('23/11/2026, 05:29')).toBeTruthy()
    expect(screen.getByText(/^Horários em .*\(America\/Sao_Paulo\)\.$/)).toBeTruthy()
    const i18n = i18next.createInstance()
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: catalogues['pt-BR'] } } })
    expect(toCsv(ledgerContentList.columns, [row], i18n.t)).toContain(at)
  })
})

describe('Intl formatters are made once per locale and options (app/lib/format.ts)', () => {
  it('the same options give the same formatter, other options another; answers are those of a fresh formatter', () => {
    const a = dateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit' })
    expect(dateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit' })).toBe(a)
    expect(dateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', hour: '2-digit' })).not.toBe(a)
    expect(dateTimeFormat('pt-BR', { timeZone: 'Europe/Lisbon', hour: '2-digit' })).not.toBe(a)
    expect(numberFormat('pt-BR')).toBe(numberFormat('pt-BR'))
    expect(numberFormat('pt-BR', { maximumFractionDigits: 2 })).not.toBe(numberFormat('pt-BR'))
    for (const [locale, timeZone] of [
      ['pt-BR', 'America/Sao_Paulo'],
      ['en-US', 'America/New_York'],
      ['es-ES', 'Europe/Madrid'],
    ]) {
      const fresh = new Intl.DateTimeFormat(locale, {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(at))
      expect(formatTime(at, { locale, timeZone })).toBe(fresh)
      expect(formatTime(at, { locale, timeZone })).toBe(fresh)
    }
    expect(money(1234.5, 'BRL', 'pt-BR')).toBe(new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 2 }).format(1234.5))
  })
})
