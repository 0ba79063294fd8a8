import { describe, expect, it } from 'vitest'
import { extraFieldSpecs, formToValues, splitErrors, valueAt } from '~/lib/form-fields'

describe('form fields with a realm’s extra fields', () => {
  const fields = [
    { name: 'name', label: 'resources.room.fields.name', kind: 'text' as const },
    ...extraFieldSpecs([
      { key: 'inep', label: 'Código INEP', required: true },
      { key: 'turno', label: 'Turno', required: false },
    ]),
  ]

  it('declares them with the realm’s own label', () => {
    expect(fields[1]).toEqual({ name: 'extra.inep', label: 'Código INEP', literal: true, kind: 'text', required: true })
  })

  it('sends them nested under extra, as the API takes them, and reads them back from a row', () => {
    const form = new FormData()
    form.set('name', '9º C')
    form.set('extra.inep', '35012345')
    form.set('extra.turno', '')
    const values = formToValues(form, fields, 'America/Sao_Paulo')
    expect(values).toEqual({ name: '9º C', extra: { inep: '35012345', turno: '' } })
    expect(valueAt(values, 'extra.inep')).toBe('35012345')
    expect(valueAt(values, 'name')).toBe('9º C')
    expect(valueAt({ name: 'x' }, 'extra.inep')).toBeUndefined()
  })

  it('puts the API’s error on the extra field it names, and a list item’s on its list', () => {
    const items = [
      { field: 'extra.inep', cause: 'required', value: 'Código INEP', message: 'validation.required' },
      { field: 'name.0', cause: 'x', value: null, message: 'm' },
      { field: 'other', cause: 'y', value: null, message: 'n' },
    ]
    const { byField, rest } = splitErrors(
      items,
      fields.map((f) => f.name),
    )
    expect(Object.keys(byField).sort()).toEqual(['extra.inep', 'name'])
    expect(rest.map((e) => e.field)).toEqual(['other'])
  })
})
