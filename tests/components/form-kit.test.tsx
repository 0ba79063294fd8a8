import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { KitForm, ListField, NumberInput, TextInput } from '~/components/form/kit'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import { LOCALE_FIELD, decodeError, encodeError, fieldName, onLine, parseForm, readDateTime, readNumber } from '~/lib/form-kit'
import { errorText } from '~/lib/error-text'
import EntityForm from '~/entity-routes/form'
import { placeErrors } from '~/server/api-action.server'
import { GenreInput, genreEntity } from '#shared/entities/tms-genre'
import { formFieldsOf } from '~/lib/entity-screens'

/** The form kit: numbers kept as typed, translated messages, error summary and focus, API errors on their fields. */

const pt = catalogues['pt-BR']
const timeZone = 'America/Sao_Paulo'

function renderRoute(path: string, Component: React.ComponentType, data: Record<string, unknown>) {
  const Stub = createRemixStub([{ path, Component, loader: () => data }])
  render(
    <ToastProvider>
      <Stub initialEntries={[path]} />
    </ToastProvider>,
  )
}

describe('reading typed values', () => {
  it('reads numbers as typed: decimal comma or point, minus sign; unreadable text stays text', () => {
    expect(readNumber('1.5')).toBe(1.5)
    expect(readNumber('1,5')).toBe(1.5)
    expect(readNumber('-5')).toBe(-5)
    expect(readNumber(' 15 ')).toBe(15)
    expect(readNumber('')).toBeUndefined()
    expect(readNumber('1.5.2')).toBe('1.5.2')
    expect(readNumber('abc')).toBe('abc')
  })

  it('reads date-times in the page language’s order and refuses impossible dates', () => {
    expect(readDateTime('23/11/2026 14:30', 'pt-BR')).toBe('2026-11-23T14:30')
    expect(readDateTime('23/11/2026', 'es-ES')).toBe('2026-11-23T00:00')
    expect(readDateTime('11/23/2026 14:30', 'en-US')).toBe('2026-11-23T14:30')
    expect(readDateTime('2026-11-23T14:30', 'pt-BR')).toBe('2026-11-23T14:30')
    expect(readDateTime('31/02/2026', 'pt-BR')).toBeNull()
    expect(readDateTime('23/11/2026', 'en-US')).toBeNull()
  })

  it('parses a declared form with the API’s schema, the same in browser and action', () => {
    const form = new FormData()
    form.set('name', 'Crônica')
    form.set('min_words', '100')
    form.set('max_words', '50')
    form.set(LOCALE_FIELD, 'pt-BR')
    const s = parseForm(form, { schema: GenreInput, fields: formFieldsOf(genreEntity), timeZone })
    expect(s.status).toBe('error')
    expect(s.status === 'error' && s.error).toEqual({ max_words: ['validation.tms.words_order'] })
    form.set('max_words', '400')
    const ok = parseForm(form, { schema: GenreInput, fields: formFieldsOf(genreEntity), timeZone })
    expect(ok.status).toBe('success')
    expect(ok.status === 'success' && ok.value).toEqual({ name: 'Crônica', min_words: 100, max_words: 400, description: '' })
  })

  it('reads a declared day in the language the form was typed in (a GET form posts none: the caller says it)', () => {
    const schema = v.object({ start_at: v.pipe(v.string('validation.required'), v.isoDate('ledger.validation.invalid_date')) })
    const fields = [{ name: 'start_at', label: 'ledger.report.start_at', kind: 'date' as const, required: true }]
    const form = new FormData()
    form.set('start_at', '11/23/2026')
    expect(parseForm(form, { schema, fields, locale: 'en-US' })).toMatchObject({ status: 'success', value: { start_at: '2026-11-23' } })
    // The same text read as pt-BR is month 23: kept as typed, so the schema refuses it instead of a changed date.
    expect(parseForm(form, { schema, fields, locale: 'pt-BR' })).toMatchObject({ status: 'error', error: { start_at: ['ledger.validation.invalid_date'] } })
    form.set('start_at', '')
    expect(parseForm(form, { schema, fields, locale: 'pt-BR' })).toMatchObject({ status: 'error', error: { start_at: ['validation.required'] } })
  })

  it('parses nested lists without declared fields, numbers with the locale’s comma', () => {
    const schema = v.object({
      targets: v.array(v.object({ nick: v.pipe(v.string(), v.minLength(2, 'validation.min_length')), amount: v.number('validation.number') })),
    })
    const form = new FormData()
    form.set('targets[0].nick', 'ana')
    form.set('targets[0].amount', '1,5')
    form.set('targets[1].nick', 'x')
    form.set('targets[1].amount', 'dez')
    const s = parseForm(form, { schema })
    expect(s.status === 'error' && s.error).toEqual({ 'targets[1].nick': ['validation.min_length'], 'targets[1].amount': ['validation.number'] })
  })
})

describe('API errors on the form', () => {
  it('puts an item on the field its path names, or the nearest posted one; the rest are form errors', () => {
    expect(fieldName('targets.0.nick')).toBe('targets[0].nick')
    const payload = { targets: [{ nick: '!!!', amount: '5' }], note: '' }
    const { fieldErrors, formErrors } = placeErrors(
      [
        { field: 'targets.0.nick', cause: 'not_found', value: '!!!', message: 'errors.not_found' },
        { field: 'targets.0', cause: 'invalid', value: null, message: 'validation.invalid' },
        { field: 'balance', cause: 'insufficient', value: 5000, message: 'ledger.insufficient' },
        { field: 'x-api-key', cause: 'forbidden', value: null, message: 'errors.forbidden' },
      ],
      payload,
    )
    expect(Object.keys(fieldErrors)).toEqual(['targets[0].nick', 'targets[0]'])
    expect(decodeError(fieldErrors['targets[0].nick'][0])).toEqual({ message: 'errors.not_found', cause: 'not_found', value: '!!!' })
    expect(formErrors.map((e) => decodeError(e).cause)).toEqual(['insufficient', 'forbidden'])
  })
})

describe('a kit form on a real screen', () => {
  it('turns off browser validation and, on a submit with errors, shows a summary and focuses the first invalid field', async () => {
    renderRoute('/tms/genre/create', EntityForm, { entity: 'tms_genre', title: 'pages.tms.genre.create', row: null, options: {}, timeZone })
    const name = (await screen.findByLabelText(new RegExp(pt['resources.tms_genre.fields.name']))) as HTMLInputElement
    expect(name.closest('form')?.noValidate).toBe(true)
    await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['tms.form.save'] })))
    const summary = await screen.findByRole('alert')
    expect(summary.textContent).toContain(pt['form.summary'])
    const link = screen.getByRole('link', { name: new RegExp(pt['resources.tms_genre.fields.name']) })
    expect(link.getAttribute('href')).toBe(`#${name.id}`)
    await waitFor(() => expect(document.activeElement).toBe(name))
    expect(name.getAttribute('aria-invalid')).toBe('true')
    const described = document.getElementById(name.getAttribute('aria-describedby') ?? '')
    expect(described?.textContent).toBe(pt['validation.required'])
  })

  it('keeps a number as typed and validates it live with translated messages', async () => {
    renderRoute('/tms/assessed_skills/create', EntityForm, {
      entity: 'tms_assessed_skill',
      title: 'pages.tms.assessed_skills.create',
      row: null,
      options: { group_id: [] },
      timeZone,
    })
    const weight = (await screen.findByLabelText(pt['resources.tms_assessed_skill.fields.weight'])) as HTMLInputElement
    for (const typed of ['1', '1.', '1.5', '-', '-5', '1,5']) {
      fireEvent.input(weight, { target: { value: typed } })
      expect(weight.value).toBe(typed)
    }
    fireEvent.input(weight, { target: { value: '-5' } })
    fireEvent.blur(weight)
    await waitFor(() => expect(weight.getAttribute('aria-invalid')).toBe('true'))
    expect(document.getElementById(weight.getAttribute('aria-describedby') ?? '')?.textContent).toBe(pt['validation.min_value'])
    fireEvent.input(weight, { target: { value: '1,5' } })
    await waitFor(() => expect(weight.getAttribute('aria-invalid')).toBeNull())
  })

  it('shows the action’s answer without script: API errors on their fields, typed values kept', async () => {
    const schema = v.object({ title: v.string(), targets: v.array(v.object({ nick: v.string(), amount: v.number() })) })
    function Screen() {
      return (
        <KitForm schema={schema} timeZone={timeZone} labels={{ 'targets[0].nick': 'Destinatário 1' }} lastResult={answer}>
          <TextInput name="title" label="Título" />
          <ListField name="targets" label="Destinatários" addLabel="Adicionar">
            {(item) => (
              <>
                <TextInput name={`${item}.nick`} label="Destinatário" />
                <NumberInput name={`${item}.amount`} label="Valor" />
              </>
            )}
          </ListField>
        </KitForm>
      )
    }
    const answer = {
      status: 'error' as const,
      initialValue: { title: 'Prêmio', targets: [{ nick: '!!!', amount: '1,5' }] },
      error: {
        'targets[0].nick': [JSON.stringify({ message: 'errors.not_found', cause: 'not_found', value: '!!!' })],
        '': [JSON.stringify({ message: 'Internal', cause: 'internal', value: null })],
      },
    }
    renderRoute('/x', Screen, {})
    const nick = (await screen.findByLabelText('Destinatário')) as HTMLInputElement
    expect(nick.value).toBe('!!!')
    expect((screen.getByLabelText('Valor') as HTMLInputElement).value).toBe('1,5')
    expect(nick.getAttribute('aria-invalid')).toBe('true')
    const summary = (await screen.findAllByRole('alert')).find((e) => e.classList.contains('error-summary'))
    expect(summary?.textContent).toContain('Destinatário 1')
    expect(summary?.textContent).toContain(pt['errors.internal'])
    expect(summary?.textContent).not.toContain('targets')
  })
})

describe('list fields', () => {
  it('adds, moves and removes items in place (the buttons submit Conform intents)', async () => {
    const schema = v.object({ targets: v.array(v.object({ nick: v.string() })) })
    function Screen() {
      return (
        <KitForm schema={schema} timeZone={timeZone} defaultValue={{ targets: [{ nick: 'ana' }] }}>
          <ListField name="targets" label="Destinatários" addLabel="Adicionar" newItem={{ nick: 'novo' }}>
            {(item) => <TextInput name={`${item}.nick`} label="Destinatário" />}
          </ListField>
        </KitForm>
      )
    }
    renderRoute('/x', Screen, {})
    const values = () => screen.queryAllByLabelText('Destinatário').map((e) => (e as HTMLInputElement).value)
    await screen.findByLabelText('Destinatário')
    expect(values()).toEqual(['ana'])
    act(() => fireEvent.click(screen.getByRole('button', { name: /Adicionar/ })))
    await waitFor(() => expect(values()).toEqual(['ana', 'novo']))
    act(() => fireEvent.click(screen.getByRole('button', { name: pt['form.list.up'].replace('{{n}}', '2') })))
    await waitFor(() => expect(values()).toEqual(['novo', 'ana']))
    act(() => fireEvent.click(screen.getByRole('button', { name: pt['form.list.remove'].replace('{{n}}', '1') })))
    await waitFor(() => expect(values()).toEqual(['ana']))
  })
})

describe('a `lines` field names the line of an error', () => {
  const fields = [{ name: 'sentences', kind: 'lines' as const, label: 'word_filter.title' }]
  const schema = v.object({ sentences: v.array(v.pipe(v.string(), v.minLength(2, 'validation.min_length'))) })
  const text = (lang: 'pt-BR' | 'en-US' | 'es-ES', s: string) => {
    const t = ((key: string, opts: Record<string, unknown> = {}) =>
      String(catalogues[lang][key] ?? opts.defaultValue ?? key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(opts[k] ?? ''))) as never
    return errorText(t, decodeError(s))
  }

  it('counts the lines as the box shows them (blank ones too), in the three languages', () => {
    const form = new FormData()
    form.set('sentences', 'boa frase\n\n  \nx\noutra')
    const s = parseForm(form, { schema, fields })
    expect(s.status).toBe('error')
    const error = (s as { error: Record<string, string[]> }).error.sentences[0]
    expect(text('pt-BR', error)).toBe(`Linha 4: ${catalogues['pt-BR']['validation.min_length']}`)
    expect(text('en-US', error)).toBe(`Line 4: ${catalogues['en-US']['validation.min_length']}`)
    expect(text('es-ES', error)).toBe(`Línea 4: ${catalogues['es-ES']['validation.min_length']}`)
  })

  it("puts the API's item of one value (`sentences.1`) on the field, naming its line", () => {
    const form = new FormData()
    form.set('sentences', 'primeira\n\nproibida')
    const item = onLine({ field: 'sentences.1', cause: 'word_filter', value: 'proibida', message: 'validation.word_filter' }, form, fields)
    expect(item.field).toBe('sentences')
    expect(text('pt-BR', encodeError(item))).toBe(`Linha 3: ${catalogues['pt-BR']['validation.word_filter']}`)
    // An item of the whole list, or of another field, stays as it is.
    const whole = { field: 'sentences', cause: 'invalid', value: null, message: 'validation.max_items' }
    expect(onLine(whole, form, fields)).toBe(whole)
  })
})
