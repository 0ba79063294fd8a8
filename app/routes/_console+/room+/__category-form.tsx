import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitForm, NumberInput, SelectInput, TextInput } from '~/components/form/kit'
import { CategoryName } from '#shared/schemas/category'
import type { categoryFormData } from './__category.server'

/** The room-category form's one schema: the screen validates with it live, the action parses with it. */
export const CategoryFormInput = v.object({
  name: CategoryName,
  parent: v.optional(v.nullable(v.string()), null),
  priority: v.pipe(
    v.number('validation.number'),
    v.integer('validation.integer'),
    v.minValue(0, 'validation.min_value'),
    v.maxValue(10_000, 'validation.max_value'),
  ),
})
type Values = { name: string; parent: string | null; priority: number }

/** A room category: name, parent (any category but itself and its subtree) and priority among its siblings. */
export function CategoryForm({
  initial,
  parents,
  mode,
  timeZone,
}: {
  initial: Values
  parents: { id: string; label: string }[]
  mode: 'create' | 'edit'
  timeZone: string
}) {
  const { t } = useTranslation()
  return (
    <KitForm
      schema={CategoryFormInput}
      lastResult={useActionData()}
      defaultValue={{ ...initial, parent: initial.parent ?? '', priority: String(initial.priority) }}
      timeZone={timeZone}
      labels={{
        name: t('resources.category.fields.name'),
        parent: t('resources.category.fields.parent'),
        priority: t('resources.category.fields.priority'),
      }}
      submitLabel={t('resources.category.save')}
      className="card narrow-form"
      protect
    >
      <TextInput name="name" label={t('resources.category.fields.name')} required maxLength={80} />
      <SelectInput
        name="parent"
        label={t('resources.category.fields.parent')}
        hint={mode === 'edit' ? t('resources.category.hints.parent') : undefined}
        placeholder={t('resources.category.top_level')}
        options={parents.map((p) => ({ value: p.id, label: p.label }))}
      />
      <NumberInput name="priority" label={t('resources.category.fields.priority')} hint={t('resources.category.hints.priority')} decimal={false} />
    </KitForm>
  )
}

/** The create and edit screens of a room category (one screen; the route files differ only in mode). */
export function CategoryScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { category, parents, timeZone } = useLoaderData<typeof categoryFormData>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t(`pages.room.category.${mode}`)}</h1>
        <Link to="/room/category" className="btn">
          {t('resources.category.back')}
        </Link>
      </div>
      <CategoryForm
        key={category.id}
        mode={mode}
        parents={parents}
        timeZone={timeZone}
        initial={{ name: category.name, parent: category.parent, priority: category.priority }}
      />
    </>
  )
}
