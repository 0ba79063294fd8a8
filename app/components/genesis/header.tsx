import { useTranslation } from 'react-i18next'
import { errorText } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'

/** The generation screens' heading: the title, which engine writes (the local one says it is extractive), the refusals. */
export function GenesisHeader({ title, engine, errors }: { title: string; engine: string; errors: ErrorItem[] }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      <p className="muted">{t(engine === 'local' ? 'genesis.engine_local' : 'genesis.engine_model', { engine })}</p>
      {errors.length > 0 && (
        <div role="alert" className="form-errors">
          <ul>
            {errors.map((e, i) => (
              <li key={i}>{errorText(t, e)}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  )
}
