import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { GenesisHeader } from '~/components/genesis/header'
import { GenesisSources, genesisShouldRevalidate, useGenesisSources } from '~/components/genesis/sources'
import { RouteError } from '~/components/shell/route-error'
import { formulaLinks } from '~/components/tms/formula-styles'
import { EMPTY_MODEL, ModelEditor, type ModelEditorProps } from '~/components/tms/model-editor'
import { ConfirmDialog } from '~/components/ui/dialog'
import { requireRoute } from '~/server/auth.server'
import { DIFFICULTIES, GENERATED_QUESTION_TYPES } from '#shared/schemas/lesson/genesis'
import type { ErrorItem } from '#shared/schemas/error'
import { generationAction, generationOptions } from './__genesis.server'
import { editorRefs, modelEditorAction } from '../tms+/__model.server'

// The reviewed draft shows formulas: KaTeX's stylesheet, as on the model editor.
export const links = formulaLinks

export const handle = { title: 'pages.genesis.model' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const options = await generationOptions(request, context, 'genesis.model')
  const { api, user } = await requireRoute(request, context, 'genesis.model')
  return { options, refs: await editorRefs(api, user), canSave: user.permissions.tms_model_create === true }
}

export const shouldRevalidate = genesisShouldRevalidate

/** JSON intents generate (the generation screens' action); the editor's form posts save the model (tms.model.create's guard). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.headers.get('Content-Type')?.includes('application/json')
    ? generationAction(request, context, 'genesis.model')
    : modelEditorAction(request, context, 'tms.model.create')

type Draft = ModelEditorProps['initial']
type Answer = { ok: true; model: { draft: Draft; engine: string } } | { ok: false; errors: ErrorItem[] }

/**
 * genesis/model/generate (issue 18): sources, questions per type, difficulty, the task configuration, the price
 * confirmed in a dialog; the generated draft is then reviewed in the task-model editor and saved as a new model.
 */
export default function ModelGenerateRoute() {
  const { options, refs, canSave } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<Answer>()
  const id = useId()
  const src = useGenesisSources()
  const [counts, setCounts] = useState<Record<string, number>>({ fill_words: 2, true_false: 2, single: 2 })
  const [difficulty, setDifficulty] = useState<string>('medium')
  const [config, setConfig] = useState(options.settings.default_config.task ?? options.configs.find((c) => c.type === 'task' && c.default_selected)?.id ?? '')
  const [confirming, setConfirming] = useState(false)
  const [key] = useState(() => crypto.randomUUID())
  const [draft, setDraft] = useState<Draft | null>(null)
  const [errors, setErrors] = useState<ErrorItem[]>([])
  const price = options.model_price
  const busy = fetcher.state !== 'idle'

  useEffect(() => {
    const d = fetcher.data
    if (!d || fetcher.state !== 'idle') return
    if (d.ok) {
      setDraft({ ...EMPTY_MODEL, ...d.model.draft })
      setErrors([])
    } else setErrors(d.errors)
  }, [fetcher.data, fetcher.state])

  const generate = () => {
    setConfirming(false)
    fetcher.submit(
      {
        intent: 'model',
        body: {
          title: src.title,
          language: src.language,
          sources: src.sources,
          counts,
          difficulty,
          config_id: config || null,
          confirm_points: price,
          idempotency_key: key,
        },
      },
      { method: 'post', encType: 'application/json' },
    )
  }

  if (draft)
    return (
      <>
        <div className="page-header">
          <h1>{t('pages.genesis.model')}</h1>
        </div>
        <p role="status">{t('genesis.model.review')}</p>
        {canSave ? (
          <ModelEditor initial={draft} categories={refs.categories} refs={{ genres: refs.genres, skills: refs.skills }} canUseBank={refs.canUseBank} />
        ) : (
          <p className="hint">{t('genesis.model.cannot_save')}</p>
        )}
      </>
    )

  return (
    <>
      <GenesisHeader title={t('pages.genesis.model')} engine={options.engine} errors={errors} />
      <form
        className="form-grid"
        aria-busy={busy}
        onSubmit={(e) => {
          e.preventDefault()
          setConfirming(true)
        }}
      >
        <GenesisSources s={src} lessons={options.lessons} />
        <fieldset>
          <legend>{t('genesis.model.counts')}</legend>
          {GENERATED_QUESTION_TYPES.map((q) => (
            <div key={q}>
              <label htmlFor={`${id}-${q}`}>{t(`tms.type.${q}`)}</label>
              <input
                id={`${id}-${q}`}
                type="number"
                min={0}
                max={20}
                step={1}
                value={counts[q]}
                onChange={(e) => setCounts({ ...counts, [q]: Math.max(0, Math.min(20, Math.trunc(Number(e.target.value) || 0))) })}
              />
            </div>
          ))}
          <label htmlFor={`${id}-difficulty`}>{t('genesis.model.difficulty')}</label>
          <select id={`${id}-difficulty`} value={difficulty} onChange={(e) => setDifficulty(e.target.value)}>
            {DIFFICULTIES.map((d) => (
              <option key={d} value={d}>
                {t(`genesis.difficulty.${d}`)}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-config`}>{t('genesis.config_of', { kind: t('genesis.kind.task') })}</label>
          <select id={`${id}-config`} value={config} disabled={!options.settings.allow_custom.task} onChange={(e) => setConfig(e.target.value)}>
            <option value="">{t('genesis.config_default')}</option>
            {options.configs
              .filter((c) => c.type === 'task')
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
          </select>
        </fieldset>
        <p data-testid="genesis-model-price">
          {t('genesis.price')}: {t('genesis.points', { count: price })}
        </p>
        <div className="form-actions">
          <button
            type="submit"
            className="btn primary"
            disabled={busy || !src.sources.length || !Object.values(counts).some((n) => n > 0) || !options.settings.activate.task}
          >
            {busy ? t('genesis.job.running') : t('genesis.generate')}
          </button>
        </div>
        {!options.settings.activate.task && <p className="hint">{t('genesis.error.content_disabled')}</p>}
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('genesis.confirm_title')}
        message={t('genesis.model.confirm_message', { count: price })}
        confirmLabel={t('genesis.confirm')}
        cancelLabel={t('genesis.cancel')}
        onConfirm={generate}
        onCancel={() => setConfirming(false)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
