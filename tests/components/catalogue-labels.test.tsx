import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { render, screen } from '@testing-library/react'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { SYSTEM_CONTENT_KEYS } from '#shared/schemas/ledger'
import { PERMISSIONS } from '#shared/schemas/permission'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'
import { contentKeyCell } from '~/lib/ledger-cells'
import { permissionAction, permissionLabel, permissionResource } from '~/lib/permission-diff'

/** A `t` of one language over the bundled catalogue, as the console's i18next does it. */
async function tOf(locale: string) {
  const i18n = i18next.createInstance()
  await i18n.init({
    lng: locale,
    resources: { [locale]: { translation: catalogues[locale as keyof typeof catalogues] } },
    interpolation: { escapeValue: false },
  })
  return i18n.t.bind(i18n) as unknown as (key: string, options?: Record<string, unknown>) => string
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

/** Every error cause the Worker can answer (`apiError(status, 'cause', …)` or an item's `cause: '…'`), read from its source. */
function apiCauses(): string[] {
  const files = readdirSync('worker', { recursive: true, encoding: 'utf8' })
    .map((f) => join('worker', f))
    .concat(readdirSync('app/shared', { recursive: true, encoding: 'utf8' }).map((f) => join('app/shared', f)))
    .filter((f) => f.endsWith('.ts') && !f.includes('/seed/') && !f.includes('/scripts/'))
  const causes = new Set<string>()
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/apiError\(\d+, '([a-z_]+)'|cause: '([a-z_]+)'/g)) causes.add(m[1] ?? m[2])
  }
  return [...causes].sort()
}

describe('error causes', () => {
  const causes = apiCauses()
  it('finds the causes in the Worker source', () => {
    expect(causes).toEqual(expect.arrayContaining(['not_found', 'forbidden', 'unknown_user', 'throttled']))
  })

  // A toast names each error by its cause; without a label it showed the raw key (`unknown_user`).
  it.each(LOCALES)('%s: every cause the API answers has a translated label', (locale) => {
    const c = catalogues[locale]
    expect(causes.filter((cause) => !c[`errors.${cause}`])).toEqual([])
  })
})
