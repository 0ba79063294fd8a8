import { useTranslation } from 'react-i18next'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { KitField, SelectInput } from '~/components/form/kit'
import type { FieldSpec } from '~/lib/form-fields'

/**
 * The analytics pages' realm picker (issue 19): the realms of `GET /api/analytics/realms` (the caller's realm tree,
 * the rule the queries check). Shown only when that tree holds more than the caller's realm.
 */
export const hasRealmPicker = (realms: AnalyticsRealms | undefined): realms is AnalyticsRealms => (realms?.realms.length ?? 0) > 1

/** The picker's fields for the period form (with "include child realms" where the page's query takes it). */
export function realmFields(children: boolean): FieldSpec[] {
  return [
    { name: 'realm', label: 'analytics.filter.realm', kind: 'select' },
    // A checkbox sending `children=true`, read as text: unchecked sends nothing, which is no filter.
    ...(children ? [{ name: 'children', label: 'analytics.filter.children', kind: 'text' } as const] : []),
  ]
}

/** Non-breaking spaces before a realm's name, one pair per level below the list's roots (a select shows no tree). */
const indent = (depth: number) => '\u00a0\u00a0'.repeat(depth)

/** The realm select and, where the page takes it, the "include child realms" checkbox (inside the period form). */
export function RealmPicker({ realms, withChildren }: { realms: AnalyticsRealms; withChildren: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <SelectInput
        name="realm"
        label={t('analytics.filter.realm')}
        options={realms.realms.map((r) => ({ value: r.code, label: `${indent(r.depth)}${r.name}` }))}
      />
      {withChildren ? (
        <KitField name="children" label={t('analytics.filter.children.true')} inline>
          {({ key, defaultValue, ...c }) => <input key={key} {...c} type="checkbox" value="true" defaultChecked={defaultValue === 'true'} />}
        </KitField>
      ) : null}
    </>
  )
}

/** Which realm the figures are for, by its name (the URL's `realm`, else the current one); nothing when unknown. */
export function RealmScope({ realms, realm, withChildren }: { realms: AnalyticsRealms | undefined; realm: string | undefined; withChildren: boolean }) {
  const { t } = useTranslation()
  const name = realms?.realms.find((r) => r.code === (realm ?? realms.current))?.name
  if (!name) return null
  return <p className="hint analytics-scope">{t(withChildren ? 'analytics.scope.children' : 'analytics.scope', { name })}</p>
}
