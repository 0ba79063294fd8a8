import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import { PERMISSIONS } from '#shared/schemas/permission'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES, type Locale } from '~/i18n/config'
import { Translator } from '~/i18n/translator'
import { contentKeyCell } from '~/lib/ledger-cells'
import { permissionAction, permissionLabel, permissionResource } from '~/lib/permission-diff'

/** A `t` of one language over the bundled catalogue, as the console's translator does it. */
function tOf(locale: string) {
  return new Translator(locale as Locale, catalogues[locale as Locale]).t
}

describe('labels of catalogue keys', () => {
  it.each(LOCALES)('%s: every permission has a translated label (whole, or resource and action)', (locale) => {
    const c = catalogues[locale]
    const missing = PERMISSIONS.filter(
      (p) => !c[`permissions.label.${p}`] && !(c[`permissions.resource.${permissionResource(p)}`] && c[`permissions.action.${permissionAction(p)}`]),
    )
    expect(missing).toEqual([])
  })

  it.each(LOCALES)('%s: every system price key has a translated label', (locale) => {
    const c = catalogues[locale]
    expect(SYSTEM_CONTENT_KEYS.filter((k) => !c[`ledger.content_key.${k}`])).toEqual([])
  })

  it('composes a permission label in the page language, never the bare key', async () => {
    const pt = await tOf('pt-BR')
    const en = await tOf('en-US')
    expect(permissionLabel(pt, 'mas_realm_list')).toBe('Domínios: listar')
    expect(permissionLabel(en, 'tms_question_bank_delete')).toBe('Question bank: delete')
    expect(permissionLabel(pt, 'mas_realm_list_all')).toBe(catalogues['pt-BR']['permissions.label.mas_realm_list_all'])
    for (const p of PERMISSIONS) expect(permissionLabel(pt, p)).not.toBe(p)
  })

  it('shows a price key by its label, and a realm’s own key as itself', async () => {
    const pt = await tOf('pt-BR')
    render(
      <div>
        {contentKeyCell('lesson.class_plan', pt)}
        {contentKeyCell('minha.chave', pt)}
      </div>,
    )
    expect(screen.getByText('Plano de aula')).toBeTruthy()
    expect(screen.getByText('minha.chave').tagName).toBe('CODE')
  })
})
