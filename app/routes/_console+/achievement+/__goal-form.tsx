import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CheckboxGroup, KitForm, ListField, NumberInput, SelectInput, SpecFields, TextArea, TextInput, CheckboxInput } from '~/components/form/kit'
import { GoalInput, GoalStatusInput, PublishGoalInput, shownPercent } from '#shared/schemas/achievement'
import { progressText } from '~/components/achievement/mobile-awards'
import type { goalScreen } from './__goal.server'
import { periodOptions, prepareGoal, preparePublish, publishFields } from './__goal'

/**
 * A goal's screen (issue 19): the model's form (title, objectives, categories, recurrence, awards with their progress
 * per objective), its publication (rooms or groups, dates, recurrence); a published goal shows its status (disable or
 * enable), its categories, and the awards its students reached per room with their current progress (an award is
 * kept when the progress later falls out of its band, and the table says so). A blocked model or a published goal is
 * read only (§4).
 */
export function GoalScreen() {
  const { goal, options, grants, timeZone } = useLoaderData<Awaited<ReturnType<typeof goalScreen>>>()
  const lastResult = useActionData()
  const { t } = useTranslation()
  const published = goal?.type === 'goal'
  const blocked = published || (goal?.published_count ?? 0) > 0
  const objectives = options.objectives.map((o) => ({ value: o.id, label: o.title }))
  // A category is named with its parents ("Bimestre › 1º bimestre"): choosing a parent counts its subcategories.
  const byId = new Map(options.categories.map((c) => [c.id, c]))
  const categoryPath = (id: string, seen = new Set<string>()): string => {
    const c = byId.get(id)
    if (!c) return id
    return c.parent_id && byId.has(c.parent_id) && !seen.has(c.parent_id) ? `${categoryPath(c.parent_id, seen.add(id))} › ${c.name}` : c.name
  }
  const categories = options.categories.map((c) => ({ value: c.id, label: categoryPath(c.id) })).sort((a, b) => a.label.localeCompare(b.label))
  const categoryNames = (ids: string[]) => (ids.length ? ids.map((id) => categoryPath(id)).join(', ') : t('achievement.all_categories'))
  const periods = periodOptions.map((p) => ({ ...p, label: t(p.label) }))
  const publish = publishFields(
    [...options.rooms.map((r) => ({ value: `room:${r.id}`, label: r.name })), ...options.groups.map((g) => ({ value: `group:${g.id}`, label: g.name }))],
    periodOptions,
  )
  return (
    <>
      <div className="page-header">
        <h1>{goal ? `${t('pages.goal.edit')}: ${goal.title}` : t('pages.goal.create')}</h1>
        <Link to={published ? '/achievement/goal/goal' : '/achievement/goal/model'} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {published ? (
        <p className="hint" role="status">
          {t('achievement.published_hint')} {t('achievement.field.status')}: <strong>{t(`achievement.status.${goal.shown_status}`)}</strong>
        </p>
      ) : blocked ? (
        <p className="hint" role="status">
          {t('achievement.blocked_hint')}
        </p>
      ) : null}
      {published ? (
        <KitForm
          schema={GoalStatusInput}
          action="?intent=status"
          timeZone={timeZone}
          lastResult={lastResult}
          aria-label={t('achievement.field.status')}
          submitLabel={goal.status === 'canceled' ? t('achievement.enable') : t('achievement.disable')}
          submitIcon={goal.status === 'canceled' ? 'check' : 'close'}
        >
          <input type="hidden" name="status" value={goal.status === 'canceled' ? 'active' : 'canceled'} />
          <dl className="facts">
            <dt>{t('achievement.field.status')}</dt>
            <dd>{t(`achievement.status.${goal.shown_status}`)}</dd>
            <dt>{t('achievement.field.start_date')}</dt>
            <dd>{goal.start_date}</dd>
            <dt>{t('achievement.field.end_date')}</dt>
            <dd>{goal.end_date}</dd>
            <dt>{t('achievement.field.period')}</dt>
            <dd>{goal.recurrent ? t(`achievement.period.${goal.period}`) : '—'}</dd>
            <dt>{t('achievement.field.targets')}</dt>
            <dd>{goal.targets.map((x) => (x.kind === 'room' ? options.rooms : options.groups).find((o) => o.id === x.id)?.name ?? x.id).join(', ')}</dd>
            <dt>{t('achievement.field.objectives')}</dt>
            <dd>{goal.objective_ids.map((id) => options.objectives.find((o) => o.id === id)?.title ?? id).join(', ')}</dd>
            <dt>{t('achievement.field.activity_categories')}</dt>
            <dd>{categoryNames(goal.activity_categories)}</dd>
            <dt>{t('achievement.field.question_categories')}</dt>
            <dd>{categoryNames(goal.question_categories)}</dd>
          </dl>
        </KitForm>
      ) : (
        <KitForm
          key={goal?.id ?? 'new'}
          schema={GoalInput}
          prepare={prepareGoal}
          lastResult={lastResult}
          defaultValue={(goal ?? { title: '', period: 'weekly', objective_ids: [], awards: [] }) as never}
          timeZone={timeZone}
          protect
          aria-label={t('pages.goal.edit')}
        >
          <fieldset disabled={blocked} className="plain-fieldset">
            <TextInput name="title" label={t('achievement.field.title')} required />
            <CheckboxGroup
              name="objective_ids"
              label={t('achievement.field.objectives')}
              options={objectives}
              hint={objectives.length ? undefined : t('achievement.no_options')}
            />
            <CheckboxGroup
              name="activity_categories"
              label={t('achievement.field.activity_categories')}
              options={categories}
              hint={categories.length ? t('achievement.activity_categories_hint') : t('achievement.no_options')}
            />
            <CheckboxGroup
              name="question_categories"
              label={t('achievement.field.question_categories')}
              options={categories}
              hint={categories.length ? t('achievement.question_categories_hint') : t('achievement.no_options')}
            />
            <CheckboxInput name="recurrent" label={t('achievement.field.recurrent')} />
            <SelectInput name="period" label={t('achievement.field.period')} options={periods} />
            <ListField
              name="awards"
              label={t('achievement.field.awards')}
              addLabel={t('achievement.add_award')}
              newItem={{
                title: '',
                description: '',
                kind: options.award_kinds[0],
                progress: [{ objective_id: options.objectives[0]?.id ?? '', min: 1, max: 1 }],
              }}
            >
              {(award, i) => (
                <fieldset className="field-group">
                  <legend>{t('achievement.award_n', { n: i + 1 })}</legend>
                  <TextInput name={`${award}.title`} label={t('achievement.field.title')} required />
                  <TextArea name={`${award}.description`} label={t('achievement.field.description')} required />
                  <TextInput name={`${award}.media_url`} label={t('achievement.field.media_url')} />
                  <SelectInput
                    name={`${award}.kind`}
                    label={t('achievement.field.kind')}
                    options={options.award_kinds.map((k) => ({ value: k, label: t(`achievement.award_kind.${k}`) }))}
                  />
                  <ListField
                    name={`${award}.progress`}
                    label={t('achievement.progress_of')}
                    addLabel={t('achievement.add_progress')}
                    newItem={{ objective_id: '', min: 0, max: 1 }}
                  >
                    {(band) => (
                      <div className="form-row">
                        <SelectInput name={`${band}.objective_id`} label={t('achievement.field.objective')} options={objectives} />
                        <NumberInput name={`${band}.min`} label={t('achievement.field.min')} hint={t('achievement.percent_hint')} />
                        <NumberInput name={`${band}.max`} label={t('achievement.field.max')} />
                      </div>
                    )}
                  </ListField>
                </fieldset>
              )}
            </ListField>
          </fieldset>
        </KitForm>
      )}
      {goal && !published ? (
        <section className="card" aria-labelledby="goal-publish">
          <h2 id="goal-publish">{t('achievement.publish_title')}</h2>
          <KitForm
            schema={PublishGoalInput}
            fields={publish}
            prepare={preparePublish}
            action="?intent=publish"
            lastResult={lastResult}
            defaultValue={{ recurrent: goal.recurrent, period: goal.period }}
            timeZone={timeZone}
            submitLabel={t('achievement.publish')}
            submitIcon="send"
            aria-label={t('achievement.publish_title')}
          >
            <SpecFields fields={publish} timeZone={timeZone} />
          </KitForm>
        </section>
      ) : null}
      {goal ? (
        <section className="card" aria-labelledby="goal-awards">
          <h2 id="goal-awards">{published ? t('achievement.grants') : t('achievement.field.awards')}</h2>
          {!published ? (
            <ul className="plain-list">
              {goal.awards.map((a) => (
                <li key={a.id}>
                  <strong>{a.title}</strong> —{' '}
                  {a.progress
                    .map(
                      (p) =>
                        `${options.objectives.find((o) => o.id === p.objective_id)?.title ?? p.objective_id}: ${shownPercent(p.min)}%–${shownPercent(p.max)}%`,
                    )
                    .join('; ')}
                </li>
              ))}
            </ul>
          ) : grants.length ? (
            <div className="table-scroll">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t('achievement.room')}</th>
                    <th scope="col">{t('achievement.student')}</th>
                    <th scope="col">{t('achievement.award')}</th>
                    <th scope="col">{t('achievement.period_key')}</th>
                    <th scope="col">{t('achievement.granted_at')}</th>
                    <th scope="col">{t('achievement.current_progress')}</th>
                  </tr>
                </thead>
                <tbody>
                  {grants.map((g) => (
                    <tr key={`${g.nick}-${g.award_title}-${g.period_key}`}>
                      <td>{g.room_name}</td>
                      <td>{g.student_name}</td>
                      <td>{g.award_title}</td>
                      <td>{g.period_key === 'once' ? '—' : g.period_key}</td>
                      <td>{g.granted_at.slice(0, 10)}</td>
                      <td>
                        {progressText(g.progress)}
                        {g.held ? null : <span className="hint"> — {t('achievement.kept_below')}</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="hint">{t('achievement.no_grants')}</p>
          )}
        </section>
      ) : null}
    </>
  )
}
