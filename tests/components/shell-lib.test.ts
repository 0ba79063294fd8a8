import { afterEach, describe, expect, it, vi } from 'vitest'
import { isChunkLoadError, reloadOnce } from '~/lib/chunk-reload'
import { abbreviate, money } from '~/lib/format'
import { permissionDiff } from '~/lib/permission-diff'
import { CHIP_MAX, dateParam, sanitizeChip, sanitizeNumber, validateSearch, type SearchDescriptor } from '~/lib/search'
import { isSwBlacklisted } from '~/lib/service-worker'

describe('search rules (seed 000 §5)', () => {
  const fields: SearchDescriptor[] = [
    { field: 'code', type: 'chip', label: 'x' },
    { field: 'count', type: 'number', label: 'x' },
    { field: 'created_at', type: 'date', label: 'x' },
    { field: 'nick', type: 'text', label: 'x', minLength: 3 },
    { field: 'realm', type: 'none', label: 'x', value: 'demo' },
  ]

  it('keeps digits only in number fields', () => {
    expect(sanitizeNumber('12a-3.4 5')).toBe('12345')
  })

  it('drops spaces from chips and caps them at 20 characters', () => {
    expect(sanitizeChip(' ab cd ')).toBe('abcd')
    expect(sanitizeChip('x'.repeat(30))).toHaveLength(CHIP_MAX)
    expect(CHIP_MAX).toBe(20)
  })

  it('needs at least one field filled (a fixed field does not count)', () => {
    expect(validateSearch(fields, { realm: 'demo' })).toEqual({ form: 'validation.search_empty' })
    expect(validateSearch(fields, { code: 'a,b' })).toEqual({})
  })

  it('rejects dates in the future, per edge', () => {
    expect(validateSearch(fields, { created_at_from: '2026-11-20', created_at_to: '2026-11-22' }, '2026-11-21')).toEqual({
      created_at_to: 'validation.future_date',
    })
    expect(validateSearch(fields, { created_at_to: '2026-11-21' }, '2026-11-21')).toEqual({})
  })

  it('reads date filters in the page language (dd/mm/aaaa; en-US mm/dd/yyyy) and refuses what cannot be a date', () => {
    expect(validateSearch(fields, { created_at_from: '20/11/2026' }, '2026-11-21', 'pt-BR')).toEqual({})
    expect(validateSearch(fields, { created_at_from: '22/11/2026' }, '2026-11-21', 'es-ES')).toEqual({ created_at_from: 'validation.future_date' })
    expect(validateSearch(fields, { created_at_from: '11/20/2026' }, '2026-11-21', 'en-US')).toEqual({})
    expect(validateSearch(fields, { created_at_from: '11/20/2026' }, '2026-11-21', 'pt-BR')).toEqual({ created_at_from: 'validation.date_format' })
    expect(validateSearch(fields, { created_at_to: '31/02/2026' }, '2026-11-21', 'pt-BR')).toEqual({ created_at_to: 'validation.date_format' })
    expect(dateParam('05/03/2026', 'pt-BR')).toBe('2026-03-05')
    expect(dateParam('05/03/2026', 'en-US')).toBe('2026-05-03')
    expect(dateParam('2026-03-05', 'pt-BR')).toBe('2026-03-05')
    expect(dateParam('ontem', 'pt-BR')).toBe('ontem')
  })

  it('rejects non-digits in number fields and short text where a minimum applies', () => {
    expect(validateSearch(fields, { count: '12x' })).toEqual({ count: 'validation.digits' })
    expect(validateSearch(fields, { nick: 'ab' })).toEqual({ nick: 'validation.min_search' })
  })
})

describe('formatting (seed 000 §9)', () => {
  it('abbreviates large numbers with k, mi, bi, tri', () => {
    expect(abbreviate(999, 'pt-BR')).toBe('999')
    expect(abbreviate(1500, 'en-US')).toBe('1.5k')
    expect(abbreviate(2_300_000, 'pt-BR')).toBe('2,3mi')
    expect(abbreviate(7_000_000_000, 'en-US')).toBe('7bi')
    expect(abbreviate(12_000_000_000_000, 'en-US')).toBe('12tri')
  })

  it('shows money with 2 decimals', () => {
    expect(money(10, 'BRL', 'pt-BR')).toMatch(/^R\$\s10,00$/)
    expect(money(1234.5, 'USD', 'en-US')).toBe('$1,234.50')
  })
})

describe('role diff', () => {
  it('lists granted and revoked permissions', () => {
    expect(permissionDiff(['a', 'b'], ['b', 'c'])).toEqual({ added: ['c'], removed: ['a'] })
  })
})

describe('chunk load failures and the service worker blacklist', () => {
  afterEach(() => {
    sessionStorage.clear()
    vi.restoreAllMocks()
  })

  it('recognises the errors of a chunk that failed to load', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })

  it('reloads once, then leaves a second failure to the error screen', () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined)
    expect(reloadOnce()).toBe(true)
    expect(reloadOnce()).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('unregisters on blacklisted URLs only', () => {
    expect(isSwBlacklisted({ pathname: '/deeplink/app', search: '' } as Location)).toBe(true)
    expect(isSwBlacklisted({ pathname: '/realm', search: '?nosw=1' } as Location)).toBe(true)
    expect(isSwBlacklisted({ pathname: '/realm', search: '' } as Location)).toBe(false)
  })
})
